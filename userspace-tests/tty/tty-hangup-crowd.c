// SPDX-License-Identifier: GPL-2.0
/*
 * Many calls asleep on one tty at once, each on a file of its own, when
 * the tty is hung up: readers, writers with output held back, poll() and
 * epoll waiters, and on a serial port tcdrain() waiters too. vhangup()
 * must return, every call must come back within WAKE_TIMEOUT_MS with what
 * a hung up tty gives, and the tty must open and work again right after.
 *
 *	read		0
 *	write		what it wrote before the hangup, else -1/EIO
 *	poll		1, revents POLLIN|POLLERR|POLLHUP
 *	epoll_wait	1, events EPOLLIN|EPOLLERR|EPOLLHUP
 *	tcdrain		0
 *	TIOCMIWAIT	-1/EIO (a modem line that never changes)
 *
 * A pty has no modem lines and never makes tcdrain() wait, so those two
 * calls are only on a serial port. TIOCMIWAIT waiters are a test of
 * their own, serial_miwait: Linux 6.12's uart_wait_modem_status() has no
 * way out of a hangup and they sleep on there, while this series has them
 * leave with -1/EIO. The rest is what 6.12 does too: base.suite runs this
 * program there with -F serial_miwait.
 *
 * Closing a pty master hangs up its slave from inside the master's
 * release: readers and pollers asleep on the slave must come back too,
 * readers with 0 or -1/EIO (the master's close also marks the slave's
 * other end closed, which n_tty reports as EIO if it sees it first).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "thread-state.h"
#include "tty-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define ASLEEP_TIMEOUT_MS 10000
#define BIG_WRITE (256 * 1024)	/* more than a pty or a UART buffers */
#define PER_CALL 3		/* sleepers of each call */

enum crowd_call {
	CALL_READ,
	CALL_WRITE,
	CALL_POLL,
	CALL_EPOLL,
	CALL_TCDRAIN,
	CALL_MIWAIT,
	NR_CALLS
};

static const char *const call_names[NR_CALLS] = {
	"read", "write", "poll", "epoll_wait", "tcdrain", "TIOCMIWAIT",
};

static const long call_nrs[NR_CALLS] = {
	SYS_read, SYS_write, SYS_poll, SYS_epoll_wait, SYS_ioctl, SYS_ioctl,
};

struct sleeper {
	enum crowd_call call;
	int fd;
	pthread_t thread;
	pid_t tid;		/* set by the thread before it calls */
	long ret;
	int err;
	unsigned int events;
	bool done;
};

/* Closes the files of the sleepers that came back. */
static void close_sleepers(struct sleeper *sleepers, int n)
{
	/* A sleeper still in its call is stuck: the process exit ends it. */
	for (int i = 0; i < n; i++)
		if (__atomic_load_n(&sleepers[i].done, __ATOMIC_ACQUIRE))
			close(sleepers[i].fd);
}

FIXTURE(crowd)
{
	struct tty_dev dev;
	int fd;			/* holds output back for the writers */
	struct sleeper sleepers[NR_CALLS * PER_CALL];
	int nr_sleepers;
};

TTY_VARIANTS(crowd);

FIXTURE_SETUP(crowd)
{
	self->nr_sleepers = 0;
	TTY_DEV_SETUP(&self->dev, variant->kind, self->fd);
	ASSERT_EQ(0, tty_make_raw(self->fd));
	/* A pty's output waits for the master, which nobody reads. */
	if (variant->kind == TTY_SERIAL)
		ASSERT_EQ(0, tcflow(self->fd, TCOOFF));
}

FIXTURE_TEARDOWN(crowd)
{
	close_sleepers(self->sleepers, self->nr_sleepers);
	tty_agents_reap();
	close(self->fd);
	tty_dev_fini(&self->dev);
}

static long epoll_once(int fd, unsigned int *events)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);
	long ret;

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
		return -1;
	ret = syscall(SYS_epoll_wait, ep, &ev, 1, -1);
	*events = ret == 1 ? ev.events : 0;
	close(ep);
	return ret;
}

static void *sleeper_main(void *arg)
{
	static char buf[BIG_WRITE];
	struct sleeper *s = arg;
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	__atomic_store_n(&s->tid, gettid(), __ATOMIC_RELEASE);
	switch (s->call) {
	case CALL_READ:
		s->ret = read(s->fd, buf, 64);
		break;
	case CALL_WRITE:
		s->ret = write(s->fd, buf, sizeof(buf));
		break;
	case CALL_POLL:
		s->ret = syscall(SYS_poll, &pfd, 1, -1);
		s->events = pfd.revents;
		break;
	case CALL_EPOLL:
		s->ret = epoll_once(s->fd, &s->events);
		break;
	case CALL_TCDRAIN:
		s->ret = tcdrain(s->fd);
		break;
	case CALL_MIWAIT:
		s->ret = ioctl(s->fd, TIOCMIWAIT,
			       TIOCM_RNG | TIOCM_DSR | TIOCM_CD | TIOCM_CTS);
		break;
	case NR_CALLS:
		break;
	}
	s->err = s->ret < 0 ? errno : 0;
	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Starts PER_CALL sleepers in call, each on a file of its own, at
 * sleepers[*n] on; *n counts those started.
 */
static void start_sleepers(struct __test_metadata *_metadata,
			   struct sleeper *sleepers, int *n,
			   const struct tty_dev *dev, enum crowd_call call)
{
	for (int i = 0; i < PER_CALL; i++) {
		struct sleeper *s = &sleepers[*n];

		memset(s, 0, sizeof(*s));
		s->call = call;
		s->fd = tty_open(dev->path, dev->kind);
		ASSERT_LE(0, s->fd) TH_LOG("open: %s", strerror(-s->fd));
		ASSERT_EQ(0, pthread_create(&s->thread, NULL, sleeper_main, s));
		ASSERT_EQ(0, pthread_detach(s->thread));
		(*n)++;
	}
}

/* Waits until each of the n sleepers sleeps in its call. */
static void wait_all_asleep(struct __test_metadata *_metadata,
			    struct sleeper *sleepers, int n)
{
	for (int i = 0; i < n; i++) {
		struct sleeper *s = &sleepers[i];
		pid_t tid;

		while (!(tid = __atomic_load_n(&s->tid, __ATOMIC_ACQUIRE)))
			sleep_ms(10);
		ASSERT_EQ(0, wait_asleep_in(tid, call_nrs[s->call], ANY_ARG,
					    ASLEEP_TIMEOUT_MS))
			TH_LOG("a %s caller never slept", call_names[s->call]);
	}
}

/* Waits up to WAKE_TIMEOUT_MS for the n sleepers to come back. */
static void wait_all_back(struct __test_metadata *_metadata,
			  struct sleeper *sleepers, int n)
{
	long long deadline = now_ms() + WAKE_TIMEOUT_MS;

	for (int i = 0; i < n; i++) {
		struct sleeper *s = &sleepers[i];

		while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) &&
		       now_ms() < deadline)
			sleep_ms(20);
		ASSERT_TRUE(__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			TH_LOG("a %s caller still sleeps %d ms after the hangup",
			       call_names[s->call], WAKE_TIMEOUT_MS);
	}
}

/* What a hung up tty gives each call; logs and returns false if not. */
static bool hung_up_result(struct __test_metadata *_metadata,
			   const struct sleeper *s)
{
	bool good = false;

	switch (s->call) {
	case CALL_READ:
	case CALL_TCDRAIN:
		good = s->ret == 0;
		break;
	case CALL_WRITE:
		good = (s->ret > 0 && s->ret < BIG_WRITE) ||
		       (s->ret == -1 && s->err == EIO);
		break;
	case CALL_POLL:
		good = s->ret == 1 && s->events == (POLLIN | POLLERR | POLLHUP);
		break;
	case CALL_EPOLL:
		good = s->ret == 1 &&
		       s->events == (EPOLLIN | EPOLLERR | EPOLLHUP);
		break;
	case CALL_MIWAIT:
		good = s->ret == -1 && s->err == EIO;
		break;
	case NR_CALLS:
		break;
	}
	if (!good)
		TH_LOG("%s: %ld (%s), events 0x%x", call_names[s->call],
		       s->ret, strerror(s->err), s->events);
	return good;
}

TEST_F_TIMEOUT(crowd, all_sleepers_leave_on_vhangup, 120)
{
	enum crowd_call last = variant->kind == TTY_SERIAL ? CALL_TCDRAIN
							   : CALL_EPOLL;
	int fd, ret;

	for (enum crowd_call call = CALL_READ; call <= last; call++)
		start_sleepers(_metadata, self->sleepers, &self->nr_sleepers,
			       &self->dev, call);
	wait_all_asleep(_metadata, self->sleepers, self->nr_sleepers);

	ret = tty_hangup_from_new_session(self->dev.path, variant->kind,
					  HANGUP_VHANGUP);
	ASSERT_EQ(0, ret) TH_LOG("vhangup: %s", strerror(-ret));

	wait_all_back(_metadata, self->sleepers, self->nr_sleepers);
	for (int i = 0; i < self->nr_sleepers; i++)
		EXPECT_TRUE(hung_up_result(_metadata, &self->sleepers[i]));

	/* The tty is back in service at once. */
	fd = tty_open(self->dev.path, variant->kind);
	ASSERT_LE(0, fd) TH_LOG("reopen: %s", strerror(-fd));
	EXPECT_EQ(0, tty_make_raw(fd));
	EXPECT_EQ(0, tcflow(fd, TCOON));
	EXPECT_EQ(3, write(fd, "ok\n", 3));
	close(fd);
}

/* TIOCMIWAIT waiters on a serial port, each on a file of its own. */
FIXTURE(serial_miwait)
{
	struct tty_dev dev;
	int fd;
	struct sleeper sleepers[PER_CALL];
	int nr_sleepers;
};

FIXTURE_SETUP(serial_miwait)
{
	self->nr_sleepers = 0;
	TTY_DEV_SETUP(&self->dev, TTY_SERIAL, self->fd);
}

FIXTURE_TEARDOWN(serial_miwait)
{
	close_sleepers(self->sleepers, self->nr_sleepers);
	tty_agents_reap();
	close(self->fd);
	tty_dev_fini(&self->dev);
}

TEST_F_TIMEOUT(serial_miwait, tiocmiwait_sleepers_leave_on_vhangup, 60)
{
	int fd, ret;

	start_sleepers(_metadata, self->sleepers, &self->nr_sleepers,
		       &self->dev, CALL_MIWAIT);
	wait_all_asleep(_metadata, self->sleepers, self->nr_sleepers);

	ret = tty_hangup_from_new_session(self->dev.path, TTY_SERIAL,
					  HANGUP_VHANGUP);
	ASSERT_EQ(0, ret) TH_LOG("vhangup: %s", strerror(-ret));

	wait_all_back(_metadata, self->sleepers, self->nr_sleepers);
	for (int i = 0; i < self->nr_sleepers; i++)
		EXPECT_TRUE(hung_up_result(_metadata, &self->sleepers[i]));

	fd = tty_open(self->dev.path, TTY_SERIAL);
	ASSERT_LE(0, fd) TH_LOG("reopen: %s", strerror(-fd));
	EXPECT_EQ(0, tty_make_raw(fd));
	EXPECT_EQ(3, write(fd, "ok\n", 3));
	close(fd);
}

FIXTURE(pty_pair)
{
	struct tty_dev dev;
	int fd;
	struct sleeper sleepers[2 * PER_CALL];
	int nr_sleepers;
};

FIXTURE_SETUP(pty_pair)
{
	self->nr_sleepers = 0;
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->fd);
	ASSERT_EQ(0, tty_make_raw(self->fd));
}

FIXTURE_TEARDOWN(pty_pair)
{
	close_sleepers(self->sleepers, self->nr_sleepers);
	close(self->fd);
	tty_dev_fini(&self->dev);
}

TEST_F_TIMEOUT(pty_pair, master_close_wakes_the_slave_sleepers, 60)
{
	start_sleepers(_metadata, self->sleepers, &self->nr_sleepers,
		       &self->dev, CALL_READ);
	start_sleepers(_metadata, self->sleepers, &self->nr_sleepers,
		       &self->dev, CALL_POLL);
	wait_all_asleep(_metadata, self->sleepers, self->nr_sleepers);

	tty_dev_fini(&self->dev);

	wait_all_back(_metadata, self->sleepers, self->nr_sleepers);
	for (int i = 0; i < self->nr_sleepers; i++) {
		struct sleeper *s = &self->sleepers[i];

		if (s->call == CALL_READ) {
			EXPECT_TRUE(s->ret == 0 ||
				    (s->ret == -1 && s->err == EIO))
				TH_LOG("read: %ld (%s)", s->ret, strerror(s->err));
		} else {
			EXPECT_TRUE(s->ret == 1 && (s->events & POLLHUP))
				TH_LOG("poll: %ld, revents 0x%x", s->ret, s->events);
		}
	}
}

TEST_HARNESS_MAIN
