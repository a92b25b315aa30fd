// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "revoke-helpers.h"
#include "thread-state.h"

int revoke_dev_open(int flags)
{
	int fd = open(REVOKE_DEV, O_RDWR | O_CLOEXEC | flags);

	return fd < 0 ? -errno : fd;
}

int revoke_dev_knob(const char *name)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), REVOKE_DEBUGFS "/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1\n", 2) != 2)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

bool kill_and_reap(pid_t pid, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	int status = 0;

	if (kill(pid, SIGKILL))
		return false;
	while (!waitpid(pid, &status, WNOHANG) && now_ms() < end)
		sleep_ms(10);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

int revoke_dev_revoke(void)
{
	return revoke_dev_knob("revoke");
}

long revoke_dev_counter(const char *name)
{
	char path[128], buf[32], *end;
	ssize_t n;
	long v;

	snprintf(path, sizeof(path), REVOKE_DEBUGFS "/%s", name);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	v = strtol(buf, &end, 10);
	if (end == buf || v < 0)
		return -EINVAL;
	return v;
}

ssize_t revoke_dev_fill(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	char buf[64];
	ssize_t n, total = 0;
	int err = 0;

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	memset(buf, 'f', sizeof(buf));
	for (;;) {
		n = write(fd, buf, sizeof(buf));
		if (n > 0) {
			total += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			err = errno;
		break;
	}
	if (fcntl(fd, F_SETFL, flags) < 0 && !err)
		err = errno;
	return err ? -err : total;
}

static void *revoke_call_thread(void *data)
{
	struct revoke_call *call = data;

	call->tid = gettid();
	errno = 0;
	call->ret = call->fn(call);
	call->err = call->ret < 0 ? errno : 0;
	return NULL;
}

int revoke_call_start(struct revoke_call *call, revoke_call_fn fn, int fd,
		      void *arg)
{
	int ret;

	call->fn = fn;
	call->fd = fd;
	call->arg = arg;
	call->tid = 0;
	call->ret = 0;
	call->err = 0;
	ret = pthread_create(&call->thread, NULL, revoke_call_thread, call);
	if (ret)
		return -ret;
	call->running = true;
	return 0;
}

int revoke_call_wait_asleep(struct revoke_call *call, long nr)
{
	long long end = now_ms() + REVOKE_SLEEP_TIMEOUT_MS;

	while (!call->tid) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(1);
	}
	return wait_asleep_in(call->tid, nr, ANY_ARG,
			      (int)(end - now_ms()));
}

int revoke_call_join(struct revoke_call *call, int timeout_ms)
{
	struct timespec ts;

	if (!call->running)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(call->thread, NULL, &ts))
		return -ETIMEDOUT;
	call->running = false;
	return 0;
}
