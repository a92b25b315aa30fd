// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "thread-state.h"

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

ssize_t read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

bool thread_asleep_in(pid_t tid, long nr, long long arg0)
{
	unsigned long long a0 = 0;
	char path[64], buf[512];
	const char *state;
	long snr;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	/* "tid (comm) S ...": the comm may hold anything but a last ')' */
	state = strrchr(buf, ')');
	if (!state || state[1] != ' ' || state[2] != 'S')
		return false;
	/* "nr arg0 ... sp pc" while in a system call, else "running" */
	snprintf(path, sizeof(path), "/proc/%d/syscall", tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	if (sscanf(buf, "%ld 0x%llx", &snr, &a0) < 1 || snr != nr)
		return false;
	return arg0 == ANY_ARG || a0 == (unsigned long long)arg0;
}

int wait_asleep_in(pid_t tid, long nr, long long arg0, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	for (;;) {
		if (thread_asleep_in(tid, nr, arg0)) {
			sleep_ms(200);
			if (thread_asleep_in(tid, nr, arg0))
				return 0;
		}
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
}
