// SPDX-License-Identifier: GPL-2.0
/*
 * What the master of a pty sees of a hangup of its slave, as a terminal
 * emulator would see it, polling and reading the master:
 *
 * - login's hangup: the session leader on the slave closes its files,
 *   calls vhangup() (as util-linux login does) and opens the slave again,
 *   once alone on the slave and once while another session holds it. The
 *   master is looked at after each step, and the window size and
 *   TIOCEXCL after the reopen.
 * - a logout that leaves a process ignoring SIGHUP with the slave open:
 *   the session leader's exit hangs nothing up on a pty
 *   (disassociate_ctty()), so the master sees the end when that process
 *   closes the slave.
 *
 * Where the slave's last file is closed, the master reads EIO and polls
 * POLLHUP (pty_close() sets TTY_OTHER_CLOSED) until the slave is opened
 * again (pty_open() clears it). Pinned as Linux 6.12 has it.
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
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tty-helpers.h"

static const struct winsize emulator_size = { .ws_row = 33, .ws_col = 101 };

/*
 * What the master shows now: "<EIO>" if a read fails (with POLLHUP, or
 * "<EIO without POLLHUP>"), the text that is there ('\n' as '/'), or ""
 * if there is nothing to read.
 */
static void master_now(int master, char *out, size_t len)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	char buf[64];
	ssize_t n, i;
	size_t j = 0;

	out[0] = '\0';
	if (poll(&pfd, 1, 100) <= 0)
		return;
	n = read(master, buf, sizeof(buf));
	if (n < 0) {
		snprintf(out, len, "%s", !(pfd.revents & POLLHUP) ?
			 "<EIO without POLLHUP>" : errno == EIO ? "<EIO>" :
			 strerror(errno));
		return;
	}
	for (i = 0; i < n && j + 1 < len; i++)
		if (buf[i] != '\r')
			out[j++] = buf[i] == '\n' ? '/' : buf[i];
	out[j] = '\0';
}

#define EXPECT_MASTER(want, master, step)				\
	do {								\
		char now_[64];					\
									\
		master_now(master, now_, sizeof(now_));		\
		EXPECT_STREQ(want, now_) TH_LOG("after %s", step);	\
	} while (0)

/* What login's session reports after it opened the slave again. */
struct login_report {
	struct winsize size;
	int excl;
	int error;		/* of the step, 0 or errno */
};

/*
 * The session on the slave, as login runs it, one step per command byte:
 * 'c' closes its file, 'v' calls vhangup(), 'o' opens the slave again
 * and writes "after", 'e' ends the session. Each step is answered with
 * a login_report.
 */
static void login_steps(const char *slave, int report, int cmd)
{
	struct login_report rep;
	int fd;
	char c;

	setsid();
	fd = open(slave, O_RDWR);	/* the controlling tty */
	if (fd < 0 || write(fd, "before\n", 7) != 7 || ioctl(fd, TIOCEXCL))
		_exit(1);
	signal(SIGHUP, SIG_IGN);	/* so vhangup() won't kill us */
	while (read(cmd, &c, 1) == 1 && c != 'e') {
		memset(&rep, 0, sizeof(rep));
		switch (c) {
		case 'c':
			close(fd);
			break;
		case 'v':
			if (vhangup())
				rep.error = errno;
			break;
		case 'o':
			fd = open(slave, O_RDWR);
			if (fd < 0) {
				rep.error = errno;
				break;
			}
			ioctl(fd, TIOCGWINSZ, &rep.size);
			ioctl(fd, TIOCGEXCL, &rep.excl);
			if (write(fd, "after\n", 6) != 6)
				rep.error = errno;
			break;
		}
		if (write(report, &rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
	}
	_exit(0);
}

FIXTURE(master_view)
{
	struct tty_dev pty;	/* the slave is pty.path */
	int master;
	const char *slave;
	int cmd, report;	/* the test's ends of the session's pipes */
	pid_t session;
};

FIXTURE_SETUP(master_view)
{
	self->cmd = self->report = -1;
	self->session = -1;
	ASSERT_EQ(0, tty_dev_init(&self->pty, TTY_PTY));
	self->master = self->pty.master;
	self->slave = self->pty.path;
	ASSERT_EQ(0, ioctl(self->master, TIOCSWINSZ, &emulator_size));
}

FIXTURE_TEARDOWN(master_view)
{
	if (self->session > 0) {
		kill(self->session, SIGKILL);
		waitpid(self->session, NULL, 0);
	}
	close(self->cmd);
	close(self->report);
	tty_dev_fini(&self->pty);
}

static void start_login(struct __test_metadata *_metadata,
			FIXTURE_DATA(master_view) *self)
{
	int report[2], cmd[2];

	ASSERT_EQ(0, pipe(report));
	ASSERT_EQ(0, pipe(cmd));
	self->session = fork();
	ASSERT_LE(0, self->session);
	if (self->session == 0) {
		close(report[0]);
		close(cmd[1]);
		login_steps(self->slave, report[1], cmd[0]);
	}
	close(report[1]);
	close(cmd[0]);
	self->report = report[0];
	self->cmd = cmd[1];
}

static struct login_report login_step(struct __test_metadata *_metadata,
				      FIXTURE_DATA(master_view) *self, char c)
{
	struct login_report rep = { .error = EPIPE };

	EXPECT_EQ(1, write(self->cmd, &c, 1));
	EXPECT_EQ((ssize_t)sizeof(rep), read(self->report, &rep, sizeof(rep)));
	EXPECT_EQ(0, rep.error) TH_LOG("step '%c': %s", c, strerror(rep.error));
	return rep;
}

/* Ends the session, whose file of the slave is the last one. */
static void end_login(struct __test_metadata *_metadata,
		      FIXTURE_DATA(master_view) *self)
{
	int status;

	ASSERT_EQ(1, write(self->cmd, "e", 1));
	ASSERT_EQ(self->session, waitpid(self->session, &status, 0));
	self->session = -1;
	EXPECT_EQ(0, status);
	EXPECT_MASTER("<EIO>", self->master, "the session's end");
}

static void expect_reopened_tty(struct __test_metadata *_metadata,
				struct login_report rep)
{
	EXPECT_EQ(emulator_size.ws_row, rep.size.ws_row);
	EXPECT_EQ(emulator_size.ws_col, rep.size.ws_col);
	EXPECT_EQ(1, rep.excl) TH_LOG("TIOCEXCL lost");
}

/*
 * Alone on the slave, login's close is the slave's last: the master
 * reads EIO until the reopen. The tty lives on with the master, and
 * keeps its window size and TIOCEXCL.
 */
TEST_F(master_view, login_alone_hangs_up_and_reopens)
{
	start_login(_metadata, self);
	EXPECT_MASTER("before/", self->master, "the login's open");
	login_step(_metadata, self, 'c');
	EXPECT_MASTER("<EIO>", self->master, "the login's close");
	login_step(_metadata, self, 'v');
	EXPECT_MASTER("<EIO>", self->master, "vhangup()");
	expect_reopened_tty(_metadata, login_step(_metadata, self, 'o'));
	EXPECT_MASTER("after/", self->master, "the reopen");
	end_login(_metadata, self);
}

/*
 * Another session holds the slave: login's close is not the last, the
 * hangup kills that session's file, and the master sees no end.
 */
TEST_F(master_view, login_hangs_up_another_holder)
{
	int holder;
	char c;

	holder = open(self->slave, O_RDWR | O_NOCTTY);
	ASSERT_LE(0, holder);
	start_login(_metadata, self);
	EXPECT_MASTER("before/", self->master, "the login's open");
	login_step(_metadata, self, 'c');
	EXPECT_MASTER("", self->master, "the login's close");
	login_step(_metadata, self, 'v');
	EXPECT_MASTER("", self->master, "vhangup()");
	EXPECT_EQ(0, read(holder, &c, 1)) TH_LOG("the holder's file is not hung up");
	EXPECT_EQ(-1, write(holder, "x", 1));
	EXPECT_EQ(EIO, errno);
	expect_reopened_tty(_metadata, login_step(_metadata, self, 'o'));
	EXPECT_MASTER("after/", self->master, "the reopen");
	close(holder);
	EXPECT_MASTER("", self->master, "the holder's close");
	end_login(_metadata, self);
}

/* The process a logout leaves behind, with the slave open as fd. */
static void holder_lives_on(int fd, int report, int cmd)
{
	ssize_t ret;
	char c;

	/* Told to write once the leader is gone */
	if (read(cmd, &c, 1) != 1)
		_exit(1);
	ret = write(fd, "live\n", 5);
	if (ret < 0)
		ret = -errno;
	if (write(report, &ret, sizeof(ret)) != sizeof(ret))
		_exit(1);
	/* Then stays until killed */
	for (;;)
		pause();
}

/*
 * The session leader exits and leaves a process that ignores SIGHUP with
 * the slave open: nothing is hung up, that process's file works, and the
 * master sees the end when it exits.
 */
TEST_F(master_view, logout_leaves_a_holder)
{
	int report[2], cmd[2], status, fd;
	pid_t leader, holder;
	ssize_t written;

	/* The holder outlives its parent: reap it here. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, pipe(report));
	ASSERT_EQ(0, pipe(cmd));
	leader = fork();
	ASSERT_LE(0, leader);
	if (leader == 0) {
		close(report[0]);
		close(cmd[1]);
		setsid();
		fd = open(self->slave, O_RDWR);	/* the controlling tty */
		if (fd < 0)
			_exit(1);
		/* Before the fork: the leader's exit sends SIGHUP */
		signal(SIGHUP, SIG_IGN);
		holder = fork();
		if (holder == 0)
			holder_lives_on(fd, report[1], cmd[0]);
		if (write(report[1], &holder, sizeof(holder)) != sizeof(holder))
			_exit(1);
		_exit(0);
	}
	close(report[1]);
	close(cmd[0]);
	ASSERT_EQ((ssize_t)sizeof(holder), read(report[0], &holder, sizeof(holder)));
	ASSERT_LT(0, holder);
	ASSERT_EQ(leader, waitpid(leader, &status, 0));
	ASSERT_EQ(0, status);
	self->session = holder;	/* killed by the teardown if need be */

	EXPECT_MASTER("", self->master, "the logout");
	ASSERT_EQ(0, kill(holder, 0)) TH_LOG("the holder did not live on");
	ASSERT_EQ(1, write(cmd[1], "w", 1));
	ASSERT_EQ((ssize_t)sizeof(written), read(report[0], &written, sizeof(written)));
	EXPECT_EQ(5, written) TH_LOG("the holder's write: %zd", written);
	EXPECT_MASTER("live/", self->master, "the holder's write");

	ASSERT_EQ(0, kill(holder, SIGKILL));
	ASSERT_EQ(holder, waitpid(holder, &status, 0));
	self->session = -1;
	EXPECT_MASTER("<EIO>", self->master, "the holder's exit");
	close(report[0]);
	close(cmd[1]);
}

TEST_HARNESS_MAIN
