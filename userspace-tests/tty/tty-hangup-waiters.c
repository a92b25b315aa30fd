// SPDX-License-Identifier: GPL-2.0
/*
 * Calls asleep on a tty when it is hung up: a reader, a poll() waiter,
 * a writer with part of its data written, a writer with none written and
 * a tcdrain() waiter. Each sleeps in a child of the test, in another
 * session than the one that hangs the tty up; the test checks it really
 * sleeps in that call, hangs the tty up, and wants the call back within
 * WAKE_TIMEOUT_MS with:
 *
 *	read		0 (n_tty_read() stops on tty_hung_up_p())
 *	poll		1, revents POLLIN|POLLERR|POLLHUP: poll() calls the
 *			file's ->poll again, now hung_up_tty_poll()
 *	write		what it wrote before the hangup, or -1/EIO if that
 *			was nothing (n_tty_write(): "(b - buf) ? b - buf :
 *			retval", iterate_tty_write() adds up the chunks)
 *	tcdrain		0: tty_wait_until_sent() is woken when the hangup
 *			flushes the output, and TCSBRK then succeeds
 *
 * Output is held back on a pty by nobody reading the master, on a serial
 * port by tcflow(TCOOFF). A pty never makes tcdrain() wait (it has no
 * chars_in_buffer), so there that test checks it does not.
 *
 * The exit of a session leader does not hang up a pty (disassociate_ctty())
 * and wakes nobody; those tests check the call still sleeps, then wake it
 * with TIOCVHANGUP.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tty-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define BIG_WRITE (256 * 1024)	/* more than a pty or a UART buffers */

enum waiter_call { CALL_READ, CALL_POLL, CALL_WRITE, CALL_TCDRAIN };

struct waiter_result {
	long ret;
	int err;
	short revents;
};

FIXTURE(waiters)
{
	struct tty_dev dev;
	int fd;
	pid_t pid;		/* the waiter */
	int result;		/* read end of the waiter's result pipe */
};

TTY_VARIANTS(waiters);

FIXTURE_SETUP(waiters)
{
	self->pid = 0;
	self->result = -1;
	TTY_DEV_SETUP(&self->dev, variant->kind, self->fd);
	ASSERT_EQ(0, tty_make_raw(self->fd));
}

FIXTURE_TEARDOWN(waiters)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	tty_agents_reap();
	close(self->result);
	close(self->fd);
	tty_dev_fini(&self->dev);
}

static void waiter_main(int fd, enum waiter_call call, int out)
{
	static char buf[BIG_WRITE];
	struct waiter_result r = { 0 };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	switch (call) {
	case CALL_READ:
		r.ret = read(fd, buf, 64);
		break;
	case CALL_POLL:
		r.ret = poll(&pfd, 1, -1);
		r.revents = pfd.revents;
		break;
	case CALL_WRITE:
		memset(buf, 'w', sizeof(buf));
		r.ret = write(fd, buf, sizeof(buf));
		break;
	case CALL_TCDRAIN:
		r.ret = tcdrain(fd);
		break;
	}
	r.err = r.ret < 0 ? errno : 0;
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static void start_waiter(struct __test_metadata *_metadata,
			 FIXTURE_DATA(waiters) *self, enum waiter_call call)
{
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (self->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(pipefd[0]);
		waiter_main(self->fd, call, pipefd[1]);
	}
	close(pipefd[1]);
	self->result = pipefd[0];
}

/* Is pid asleep (state S) in system call nr? */
static bool sleeps_in(pid_t pid, long nr)
{
	char path[64], text[512], *p;
	bool sleeping = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(text, sizeof(text), f)) {
		p = strrchr(text, ')');
		sleeping = p && p[1] == ' ' && p[2] == 'S';
	}
	fclose(f);
	if (!sleeping)
		return false;

	/* "running", or the number of the call it sleeps in */
	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	sleeping = fgets(text, sizeof(text), f) &&
		   strtol(text, &p, 10) == nr && p != text;
	fclose(f);
	return sleeping;
}

/* True once pid sleeps in call nr in five samples in a row, 100 ms apart */
static bool waiter_blocked(pid_t pid, long nr)
{
	int good = 0;

	for (int i = 0; i < WAKE_TIMEOUT_MS / 100; i++) {
		good = sleeps_in(pid, nr) ? good + 1 : 0;
		if (good == 5)
			return true;
		usleep(100 * 1000);
	}
	return false;
}

static long call_nr(enum waiter_call call)
{
	switch (call) {
	case CALL_READ:
		return SYS_read;
	case CALL_POLL:
		return SYS_poll;	/* what glibc's poll() uses on x86-64 */
	case CALL_WRITE:
		return SYS_write;
	case CALL_TCDRAIN:
		return SYS_ioctl;	/* TCSBRK, 1 */
	}
	return -1;
}

/* Waits for the waiter's result; false if none came in timeout_ms. */
static bool waiter_result(FIXTURE_DATA(waiters) *self,
			  struct waiter_result *r, int timeout_ms)
{
	struct pollfd pfd = { .fd = self->result, .events = POLLIN };

	if (poll(&pfd, 1, timeout_ms) != 1 ||
	    read(self->result, r, sizeof(*r)) != sizeof(*r))
		return false;
	waitpid(self->pid, NULL, 0);
	self->pid = 0;
	return true;
}

/*
 * Hangs up as "how" says. Where that leaves the tty up (a pty's session
 * leader exiting), checks that the waiter sleeps on, then hangs up with
 * TIOCVHANGUP to release it.
 */
static void hang_up(struct __test_metadata *_metadata,
		    FIXTURE_DATA(waiters) *self, enum tty_kind kind,
		    enum waiter_call call, enum tty_hangup how)
{
	struct waiter_result r;
	int ret;

	ret = tty_hangup_from_new_session(self->dev.path, kind, how);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", tty_hangup_name(how),
				 strerror(-ret));
	if (kind != TTY_PTY || how != HANGUP_SESSION_EXIT)
		return;

	ASSERT_FALSE(waiter_result(self, &r, 500))
		TH_LOG("a pty's leader exit woke the waiter: ret %ld", r.ret);
	EXPECT_TRUE(waiter_blocked(self->pid, call_nr(call)));
	ret = tty_hangup_from_new_session(self->dev.path, kind,
					  HANGUP_TIOCVHANGUP);
	ASSERT_EQ(0, ret);
}

/* Starts the waiter, checks it sleeps, hangs up, returns its result. */
static void wake_waiter(struct __test_metadata *_metadata,
			FIXTURE_DATA(waiters) *self, enum tty_kind kind,
			enum waiter_call call, enum tty_hangup how,
			struct waiter_result *r)
{
	start_waiter(_metadata, self, call);
	ASSERT_TRUE(waiter_blocked(self->pid, call_nr(call)))
		TH_LOG("the waiter never slept in its call");
	hang_up(_metadata, self, kind, call, how);
	ASSERT_TRUE(waiter_result(self, r, WAKE_TIMEOUT_MS))
		TH_LOG("the waiter was not woken within %d ms by %s",
		       WAKE_TIMEOUT_MS, tty_hangup_name(how));
}

static void test_read(struct __test_metadata *_metadata,
		      FIXTURE_DATA(waiters) *self, enum tty_kind kind,
		      enum tty_hangup how)
{
	struct waiter_result r;

	wake_waiter(_metadata, self, kind, CALL_READ, how, &r);
	EXPECT_EQ(0, r.ret) TH_LOG("read: %ld (%s)", r.ret, strerror(r.err));
}

static void test_poll(struct __test_metadata *_metadata,
		      FIXTURE_DATA(waiters) *self, enum tty_kind kind,
		      enum tty_hangup how)
{
	struct waiter_result r;

	wake_waiter(_metadata, self, kind, CALL_POLL, how, &r);
	EXPECT_EQ(1, r.ret);
	EXPECT_EQ(POLLIN | POLLERR | POLLHUP, r.revents)
		TH_LOG("revents 0x%x", r.revents);
}

/* Stops output: the writes that follow stay queued, or wait. */
static void stop_output(struct __test_metadata *_metadata, int fd)
{
	ASSERT_EQ(0, tcflow(fd, TCOOFF));
}

/*
 * A writer that wrote part of its data returns how much. On a serial
 * port that is exactly what sat queued in the UART while it slept. On a
 * pty it is what the master's buffers took, which the hangup throws away
 * (pty_flush_buffer() flushes the master's flip buffer).
 */
static void test_write_partial(struct __test_metadata *_metadata,
			       FIXTURE_DATA(waiters) *self,
			       enum tty_kind kind, enum tty_hangup how)
{
	struct waiter_result r;
	int queued = -1, again = -2;

	if (kind == TTY_SERIAL)
		stop_output(_metadata, self->fd);
	start_waiter(_metadata, self, CALL_WRITE);
	ASSERT_TRUE(waiter_blocked(self->pid, SYS_write));
	if (kind == TTY_SERIAL) {
		/* Stopped output: the queue must not move. */
		ASSERT_EQ(0, ioctl(self->fd, TIOCOUTQ, &queued));
		usleep(200 * 1000);
		ASSERT_EQ(0, ioctl(self->fd, TIOCOUTQ, &again));
		ASSERT_EQ(queued, again);
		ASSERT_LT(0, queued);
	}
	hang_up(_metadata, self, kind, CALL_WRITE, how);
	ASSERT_TRUE(waiter_result(self, &r, WAKE_TIMEOUT_MS))
		TH_LOG("the writer was not woken by %s", tty_hangup_name(how));

	EXPECT_LT(0, r.ret) TH_LOG("write: %ld (%s)", r.ret, strerror(r.err));
	EXPECT_GT(BIG_WRITE, r.ret);
	if (kind == TTY_SERIAL)
		EXPECT_EQ(queued, r.ret);
	TH_LOG("the writer wrote %ld of %d bytes", r.ret, BIG_WRITE);
}

/*
 * A writer that could write nothing before the hangup gets -1/EIO:
 * output is stopped and the driver's buffer is full (a stopped pty
 * takes nothing at all: pty_write() returns 0 while stopped).
 */
static void test_write_nothing(struct __test_metadata *_metadata,
			       FIXTURE_DATA(waiters) *self,
			       enum tty_kind kind, enum tty_hangup how)
{
	struct waiter_result r;
	char buf[256];
	long filled = 0;
	ssize_t n;

	memset(buf, 'f', sizeof(buf));
	stop_output(_metadata, self->fd);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	while ((n = write(self->fd, buf, sizeof(buf))) > 0)
		filled += n;
	ASSERT_EQ(-1, n);
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, 0));
	if (kind == TTY_PTY)
		EXPECT_EQ(0, filled);

	start_waiter(_metadata, self, CALL_WRITE);
	ASSERT_TRUE(waiter_blocked(self->pid, SYS_write));
	hang_up(_metadata, self, kind, CALL_WRITE, how);
	ASSERT_TRUE(waiter_result(self, &r, WAKE_TIMEOUT_MS))
		TH_LOG("the writer was not woken by %s", tty_hangup_name(how));
	EXPECT_EQ(-1, r.ret) TH_LOG("write returned %ld", r.ret);
	EXPECT_EQ(EIO, r.err) TH_LOG("write: %s", strerror(r.err));
}

static void test_tcdrain(struct __test_metadata *_metadata,
			 FIXTURE_DATA(waiters) *self, enum tty_kind kind,
			 enum tty_hangup how)
{
	struct waiter_result r;
	char buf[64];
	int queued = 0;

	stop_output(_metadata, self->fd);
	if (kind == TTY_PTY) {
		/*
		 * A stopped pty takes no output, and tcdrain() has nothing
		 * to wait for: it returns at once, and there is nothing for
		 * a hangup to wake.
		 */
		start_waiter(_metadata, self, CALL_TCDRAIN);
		ASSERT_TRUE(waiter_result(self, &r, WAKE_TIMEOUT_MS))
			TH_LOG("tcdrain() waits on a pty");
		EXPECT_EQ(0, r.ret);
		return;
	}
	memset(buf, 'd', sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), write(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, ioctl(self->fd, TIOCOUTQ, &queued));
	ASSERT_EQ((int)sizeof(buf), queued);
	wake_waiter(_metadata, self, kind, CALL_TCDRAIN, how, &r);
	EXPECT_EQ(0, r.ret) TH_LOG("tcdrain: %ld (%s)", r.ret,
				   strerror(r.err));
}

#define WAITER_TESTS(name)						\
	TEST_F(waiters, name##_vhangup)					\
	{								\
		test_##name(_metadata, self, variant->kind,		\
			    HANGUP_VHANGUP);				\
	}								\
	TEST_F(waiters, name##_tiocvhangup)				\
	{								\
		test_##name(_metadata, self, variant->kind,		\
			    HANGUP_TIOCVHANGUP);			\
	}								\
	TEST_F(waiters, name##_session_leader_exit)			\
	{								\
		test_##name(_metadata, self, variant->kind,		\
			    HANGUP_SESSION_EXIT);			\
	}

WAITER_TESTS(read)
WAITER_TESTS(poll)
WAITER_TESTS(write_partial)
WAITER_TESTS(write_nothing)
WAITER_TESTS(tcdrain)

TEST_HARNESS_MAIN
