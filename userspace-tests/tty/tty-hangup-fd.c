// SPDX-License-Identifier: GPL-2.0
/*
 * What a tty file held in another session gives once the tty is hung up,
 * for each way of hanging it up, on a pty slave and on a serial port.
 * revokeat(2) of the tty's path, by a process that does not have it as
 * its controlling tty, is one of the ways: its files must behave as
 * after vhangup().
 *
 * A hung-up file has hung_up_tty_fops (drivers/tty/tty_io.c): read
 * returns 0, write -EIO, poll all of IN|OUT|ERR|HUP|RDNORM|WRNORM (which
 * poll(2) masks with what was asked, plus ERR|HUP), every ioctl -EIO but
 * TIOCSPGRP, which gets -ENOTTY, and fasync -ENOTTY. Every file open on
 * the tty is hung up, not just one, and the tty opens again at once.
 *
 * A session leader's exit hangs up its controlling tty through
 * disassociate_ctty() -> tty_vhangup_session(), except on a pty: there it
 * only sends SIGHUP to the foreground group and the tty stays usable.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tty-helpers.h"

FIXTURE(hangup_fd)
{
	struct tty_dev dev;
	int fd;		/* the file the test checks */
	int fd2;	/* another open file of the same tty, with O_ASYNC */
	int fd3;	/* opened after the hangup */
};

TTY_VARIANTS(hangup_fd);

FIXTURE_SETUP(hangup_fd)
{
	sigset_t sigio;

	self->fd = self->fd2 = self->fd3 = -1;
	TTY_DEV_SETUP(&self->dev, variant->kind, self->fd);
	ASSERT_EQ(0, tty_make_raw(self->fd));
	self->fd2 = tty_open(self->dev.path, variant->kind);
	ASSERT_LE(0, self->fd2);

	/* A SIGIO would show up as pending, not kill the test. */
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &sigio, NULL));
	ASSERT_EQ(0, fcntl(self->fd2, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->fd2, F_SETFL, O_ASYNC));
}

FIXTURE_TEARDOWN(hangup_fd)
{
	tty_agents_reap();
	close(self->fd3);
	close(self->fd2);
	close(self->fd);
	tty_dev_fini(&self->dev);
}

static bool hangs_up(enum tty_kind kind, enum tty_hangup how)
{
	/* disassociate_ctty(): "on_exit && tty->driver->type != PTY" */
	return !(kind == TTY_PTY && how == HANGUP_SESSION_EXIT);
}

static void check_poll(struct __test_metadata *_metadata, int fd,
		       short events, short expected)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(expected, pfd.revents)
		TH_LOG("poll(0x%x) gave revents 0x%x, expected 0x%x",
		       events, pfd.revents, expected);
}

/* ioctl(fd, cmd, arg) must fail with err. */
#define EXPECT_IOCTL_FAILS(err, fd, cmd, arg)				\
	do {								\
		errno = 0;						\
		EXPECT_EQ(-1, ioctl(fd, cmd, arg))			\
			TH_LOG("%s succeeded", #cmd);			\
		EXPECT_EQ(err, errno)					\
			TH_LOG("%s: %s", #cmd, strerror(errno));	\
	} while (0)

static void check_hung_up(struct __test_metadata *_metadata, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	struct termios tio;
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	char buf[16], c = 'x';
	int v = 0, on = 1, off = 0, ep;

	/*
	 * read: end of file, whether or not it would block. Non-blocking
	 * first, so that a file still live fails here instead of hanging.
	 */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	ASSERT_EQ(0, read(fd, buf, sizeof(buf)))
		TH_LOG("not hung up: read gave %s", strerror(errno));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, 0));
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));

	errno = 0;
	EXPECT_EQ(-1, write(fd, "x", 1));
	EXPECT_EQ(EIO, errno);

	/* poll: always ready, ERR|HUP plus what was asked of the rest */
	check_poll(_metadata, fd, POLLIN | POLLOUT,
		   POLLIN | POLLOUT | POLLERR | POLLHUP);	/* 0x1d */
	check_poll(_metadata, fd, POLLIN, POLLIN | POLLERR | POLLHUP);
	check_poll(_metadata, fd, POLLOUT, POLLOUT | POLLERR | POLLHUP);
	check_poll(_metadata, fd, POLLPRI, POLLERR | POLLHUP);
	check_poll(_metadata, fd, 0, POLLERR | POLLHUP);
	check_poll(_metadata, fd, POLLRDNORM | POLLWRNORM,
		   POLLRDNORM | POLLWRNORM | POLLERR | POLLHUP);

	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	memset(&ev, 0, sizeof(ev));
	EXPECT_EQ(1, epoll_wait(ep, &ev, 1, 0));
	EXPECT_EQ(EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP, (int)ev.events);
	close(ep);

	/* hung_up_tty_ioctl(): -EIO for all but TIOCSPGRP */
	EXPECT_IOCTL_FAILS(EIO, fd, TCGETS, &tio);
	memset(&tio, 0, sizeof(tio));
	EXPECT_IOCTL_FAILS(EIO, fd, TCSETS, &tio);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCGWINSZ, &ws);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCSWINSZ, &ws);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCSTI, &c);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCGPGRP, &v);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCGSID, &v);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCOUTQ, &v);
	EXPECT_IOCTL_FAILS(EIO, fd, FIONREAD, &v);
	EXPECT_IOCTL_FAILS(EIO, fd, TCFLSH, TCIOFLUSH);
	EXPECT_IOCTL_FAILS(EIO, fd, TCXONC, TCOON);
	EXPECT_IOCTL_FAILS(EIO, fd, TCSBRK, 1);		/* tcdrain() */
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCSCTTY, 0);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCNOTTY, 0);
	EXPECT_IOCTL_FAILS(EIO, fd, TIOCVHANGUP, 0);
	v = getpgrp();
	EXPECT_IOCTL_FAILS(ENOTTY, fd, TIOCSPGRP, &v);

	/*
	 * fasync: hung_up_tty_fasync() says -ENOTTY. The VFS calls it only
	 * when FASYNC changes, so turning it off when off still succeeds.
	 */
	EXPECT_IOCTL_FAILS(ENOTTY, fd, FIOASYNC, &on);
	EXPECT_EQ(0, ioctl(fd, FIOASYNC, &off));
	errno = 0;
	EXPECT_EQ(-1, fcntl(fd, F_SETFL, O_ASYNC));
	EXPECT_EQ(ENOTTY, errno);
	/* FIONBIO is the VFS's alone. */
	EXPECT_EQ(0, ioctl(fd, FIONBIO, &off));
}

/*
 * The hangup took fd2's fasync entry away (__tty_fasync(-1, filp, 0) in
 * __tty_hangup()), which clears O_ASYNC, and sent no SIGIO.
 */
static void check_async_dropped(struct __test_metadata *_metadata, int fd)
{
	sigset_t pending;

	EXPECT_EQ(0, fcntl(fd, F_GETFL) & O_ASYNC);
	ASSERT_EQ(0, sigpending(&pending));
	EXPECT_EQ(0, sigismember(&pending, SIGIO));
}

/* A pty that was not hung up: both ways through work as before. */
static void check_pty_live(struct __test_metadata *_metadata,
			   FIXTURE_DATA(hangup_fd) *self)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLOUT };
	struct termios tio;
	char c = 0;

	EXPECT_EQ(0, ioctl(self->fd, TCGETS, &tio));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT, pfd.revents);
	EXPECT_EQ(1, write(self->fd, "a", 1));
	EXPECT_EQ(1, tty_read_for(self->dev.master, &c, 1, 5000));
	EXPECT_EQ('a', c);
	EXPECT_EQ(1, write(self->dev.master, "b", 1));
	EXPECT_EQ(1, tty_read_for(self->fd, &c, 1, 5000));
	EXPECT_EQ('b', c);
	EXPECT_EQ(O_ASYNC, fcntl(self->fd2, F_GETFL) & O_ASYNC);
}

/*
 * The session leader's exit, checked from both sides: the leader saw the
 * tty as its controlling tty, and afterwards no session has it. Only the
 * pty master can ask that from outside the session (tiocgsid()).
 */
static void hang_up_by_leader_exit(struct __test_metadata *_metadata,
				   FIXTURE_DATA(hangup_fd) *self,
				   enum tty_kind kind)
{
	struct tty_agent *leader;
	int sid = 0;

	leader = tty_agent_start(self->dev.path, kind,
				 AGENT_SETSID | AGENT_CTTY);
	ASSERT_NE(NULL, leader) TH_LOG("leader: %s", strerror(errno));
	ASSERT_EQ(leader->pid, tty_agent_call(leader, AGENT_GETSID, 0));
	if (kind == TTY_PTY) {
		ASSERT_EQ(0, ioctl(self->dev.master, TIOCGSID, &sid));
		ASSERT_EQ(leader->pid, sid);
	}
	ASSERT_EQ(0, tty_agent_exit(leader));
	if (kind == TTY_PTY) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->dev.master, TIOCGSID, &sid));
		EXPECT_EQ(ENOTTY, errno);
	}
}

static void hang_up(struct __test_metadata *_metadata,
		    FIXTURE_DATA(hangup_fd) *self, enum tty_kind kind,
		    enum tty_hangup how)
{
	int ret;

	if (how == HANGUP_SESSION_EXIT) {
		hang_up_by_leader_exit(_metadata, self, kind);
		return;
	}
	ret = tty_hangup_from_new_session(self->dev.path, kind, how);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", tty_hangup_name(how),
				 strerror(-ret));
}

static void fd_after_hangup(struct __test_metadata *_metadata,
			    FIXTURE_DATA(hangup_fd) *self,
			    enum tty_kind kind, enum tty_hangup how)
{
	hang_up(_metadata, self, kind, how);
	if (!hangs_up(kind, how)) {
		check_pty_live(_metadata, self);
		return;
	}
	check_hung_up(_metadata, self->fd);
	check_async_dropped(_metadata, self->fd2);
	/* Every file of the tty is hung up, not just one. */
	check_hung_up(_metadata, self->fd2);
	EXPECT_EQ(0, close(self->fd2));
	self->fd2 = -1;
}

/*
 * After the hangup the tty opens again at once and the new file works,
 * while the old one stays hung up. A pty slave's termios are reset by the
 * hangup (TTY_DRIVER_RESET_TERMIOS, tty_ldisc_hangup()); a serial port
 * keeps the raw mode set on it before.
 */
static void reopen_after_hangup(struct __test_metadata *_metadata,
				FIXTURE_DATA(hangup_fd) *self,
				enum tty_kind kind, enum tty_hangup how)
{
	struct pollfd pfd = { .events = POLLIN | POLLOUT };
	bool reset = kind == TTY_PTY && hangs_up(kind, how);
	struct termios tio;
	char buf[8] = "";

	hang_up(_metadata, self, kind, how);
	self->fd3 = tty_open(self->dev.path, kind);
	ASSERT_LE(0, self->fd3)
		TH_LOG("reopen %s: %s", self->dev.path, strerror(-self->fd3));
	ASSERT_EQ(0, tcgetattr(self->fd3, &tio));
	EXPECT_EQ(reset ? (tcflag_t)(ICANON | ECHO) : 0,
		  tio.c_lflag & (ICANON | ECHO));
	ASSERT_EQ(0, tty_make_raw(self->fd3));

	pfd.fd = self->fd3;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT, pfd.revents);
	EXPECT_EQ(4, write(self->fd3, "ping", 4));
	if (kind == TTY_PTY) {
		EXPECT_EQ(4, tty_read_for(self->dev.master, buf, 4, 5000));
		EXPECT_EQ(0, memcmp(buf, "ping", 4));
		EXPECT_EQ(4, write(self->dev.master, "pong", 4));
		EXPECT_EQ(4, tty_read_for(self->fd3, buf, 4, 5000));
		EXPECT_EQ(0, memcmp(buf, "pong", 4));
	} else {
		/* The null backend takes all output and sends nothing. */
		EXPECT_EQ(0, tcdrain(self->fd3));
		ASSERT_EQ(0, fcntl(self->fd3, F_SETFL, O_NONBLOCK));
		errno = 0;
		EXPECT_EQ(-1, read(self->fd3, buf, sizeof(buf)));
		EXPECT_EQ(EAGAIN, errno);
	}

	if (hangs_up(kind, how)) {
		ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
		EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
		errno = 0;
		EXPECT_EQ(-1, write(self->fd, "x", 1));
		EXPECT_EQ(EIO, errno);
	}
}

TEST_F(hangup_fd, vhangup)
{
	fd_after_hangup(_metadata, self, variant->kind, HANGUP_VHANGUP);
}

TEST_F(hangup_fd, tiocvhangup)
{
	fd_after_hangup(_metadata, self, variant->kind, HANGUP_TIOCVHANGUP);
}

TEST_F(hangup_fd, revokeat)
{
	fd_after_hangup(_metadata, self, variant->kind, HANGUP_REVOKEAT);
}

TEST_F(hangup_fd, session_leader_exit)
{
	fd_after_hangup(_metadata, self, variant->kind, HANGUP_SESSION_EXIT);
}

TEST_F(hangup_fd, reopen_after_vhangup)
{
	reopen_after_hangup(_metadata, self, variant->kind, HANGUP_VHANGUP);
}

TEST_F(hangup_fd, reopen_after_tiocvhangup)
{
	reopen_after_hangup(_metadata, self, variant->kind,
			    HANGUP_TIOCVHANGUP);
}

TEST_F(hangup_fd, reopen_after_revokeat)
{
	reopen_after_hangup(_metadata, self, variant->kind, HANGUP_REVOKEAT);
}

TEST_F(hangup_fd, reopen_after_session_leader_exit)
{
	reopen_after_hangup(_metadata, self, variant->kind,
			    HANGUP_SESSION_EXIT);
}

TEST_HARNESS_MAIN
