// SPDX-License-Identifier: GPL-2.0
/*
 * A revoke does not wait on an interruptible sleep that the owner's kick
 * does not reach.
 *
 * revoke_it() kicks the sleepers inside the methods of the files it
 * revokes; a thread still asleep interruptibly inside one after that is
 * interrupted as by a signal (signal_pending() becomes true for it), so
 * that its wait ends. The test device's ioctl _IO('R', 1) is such a
 * sleep, a driver's private wait that no kick reaches, a minute long: it
 * returns -ERESTARTSYS, and the call, restarted, meets the revoked table,
 * -ENODEV. The same wait with revoke_pending() in its condition, the
 * ioctl _IO('R', 2), sees the revoke when the interruption wakes it, and
 * the call returns the driver's own answer, -EIO.
 *
 * A page fault inside a method, on a page that a userfaultfd never
 * serves, is interrupted too, and gives up: the write that copies from
 * that page fails with EFAULT, and the revoke returns.
 *
 * A thread that is not inside a method of a revoked file is never
 * interrupted: a pipe read and an epoll_wait() of the same process sleep
 * on through the revoke and then return what they were waiting for, not
 * EINTR.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"
#include "uffd-helpers.h"

/* lib/test_revoke.c: sleeps a minute where no kick reaches */
#define SLEEP_UNKICKED		_IO('R', 1)
/* ... and the same, waiting for revoke_pending() */
#define WAIT_UNKICKED		_IO('R', 2)
/* How long the revoke may take here: far less than that minute. */
#define REVOKE_RETURNS_MS	5000

FIXTURE(interrupt)
{
	int fd;
	struct revoke_call sleeper;
	struct revoke_call revoker;
	struct uffd_page page;
};

FIXTURE_SETUP(interrupt)
{
	memset(&self->sleeper, 0, sizeof(self->sleeper));
	memset(&self->revoker, 0, sizeof(self->revoker));
	memset(&self->page, 0, sizeof(self->page));
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(interrupt)
{
	/* A fault the revoke did not end goes on now. */
	uffd_page_release(&self->page);
	revoke_call_join(&self->sleeper, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&self->revoker, REVOKE_WAKE_TIMEOUT_MS);
	close(self->fd);
	uffd_page_fini(&self->page);
}

static long call_sleep_unkicked(struct revoke_call *call)
{
	return ioctl(call->fd, SLEEP_UNKICKED);
}

static long call_wait_unkicked(struct revoke_call *call)
{
	return ioctl(call->fd, WAIT_UNKICKED);
}

static long call_revoke(struct revoke_call *call)
{
	int ret = revoke_dev_revoke();

	errno = -ret;
	return ret ? -1 : 0;
}

/*
 * Revokes from a thread of its own, so that a revoke that waits on the
 * sleeper fails the test instead of hanging it.
 */
#define ASSERT_REVOKE_RETURNS(self)					\
	do {								\
		ASSERT_EQ(0, revoke_call_start(&(self)->revoker,	\
					       call_revoke, -1, NULL));	\
		ASSERT_EQ(0, revoke_call_join(&(self)->revoker,		\
					      REVOKE_RETURNS_MS))	\
			TH_LOG("the revoke waits on the sleeper");	\
		ASSERT_EQ(0, (self)->revoker.ret)			\
			TH_LOG("revoke: %s",				\
			       strerror((self)->revoker.err));		\
	} while (0)

/*
 * Puts a thread to sleep in FN(fd, ARG), system call NR, revokes, and
 * checks that the call came back with ERR.
 */
#define ASSERT_REVOKE_ENDS_SLEEPER(self, fn, arg, nr, err, what)	\
	do {								\
		ASSERT_EQ(0, revoke_call_start(&(self)->sleeper, fn,	\
					       (self)->fd, arg));	\
		ASSERT_EQ(0, revoke_call_wait_asleep(&(self)->sleeper,	\
						     nr));		\
		ASSERT_REVOKE_RETURNS(self);				\
		ASSERT_CALL_RETURNS(&(self)->sleeper);			\
		EXPECT_CALL_ERRNO(&(self)->sleeper, err, what);		\
	} while (0)

/* The ioctl that no kick reaches comes back from the revoked table. */
#define ASSERT_UNKICKED_SLEEPER_INTERRUPTED(self)			\
	ASSERT_REVOKE_ENDS_SLEEPER(self, call_sleep_unkicked, NULL,	\
				   SYS_ioctl, ENODEV,			\
				   "ioctl asleep at the revoke")

TEST_F(interrupt, unkicked_sleep_is_interrupted_and_restarted)
{
	ASSERT_UNKICKED_SLEEPER_INTERRUPTED(self);
}

TEST_F(interrupt, wait_that_sees_the_revoke_answers_it)
{
	ASSERT_REVOKE_ENDS_SLEEPER(self, call_wait_unkicked, NULL, SYS_ioctl,
				   EIO, "ioctl waiting for revoke_pending()");
}

static long call_write_from(struct revoke_call *call)
{
	return write(call->fd, call->arg, 1);
}

TEST_F(interrupt, fault_inside_a_method_gives_up)
{
	int ret = uffd_page_init(&self->page);

	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));
	ASSERT_REVOKE_ENDS_SLEEPER(self, call_write_from, self->page.addr,
				   SYS_write, EFAULT,
				   "write from a page never served");
}

static long call_read_pipe(struct revoke_call *call)
{
	char c;

	return read(call->fd, &c, 1);
}

static long call_epoll_wait(struct revoke_call *call)
{
	struct epoll_event ev;

	return epoll_wait(call->fd, &ev, 1, -1);
}

TEST_F(interrupt, threads_outside_the_methods_are_not_interrupted)
{
	struct revoke_call reader = { 0 }, poller = { 0 };
	struct epoll_event ev = { .events = EPOLLIN };
	int pipe_fds[2], other[2], epfd;

	ASSERT_EQ(0, pipe(pipe_fds));
	ASSERT_EQ(0, pipe(other));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, epfd);
	ASSERT_EQ(0, epoll_ctl(epfd, EPOLL_CTL_ADD, other[0], &ev));
	ASSERT_EQ(0, revoke_call_start(&reader, call_read_pipe, pipe_fds[0],
				       NULL));
	ASSERT_EQ(0, revoke_call_start(&poller, call_epoll_wait, epfd, NULL));
	ASSERT_EQ(0, revoke_call_wait_asleep(&reader, SYS_read));
	ASSERT_EQ(0, revoke_call_wait_asleep(&poller, SYS_epoll_wait));
	/* The one thread inside a method, which the revoke interrupts */
	ASSERT_UNKICKED_SLEEPER_INTERRUPTED(self);

	/* The others sleep on, and end as they would have */
	EXPECT_TRUE(thread_asleep_in(reader.tid, SYS_read, pipe_fds[0]));
	EXPECT_TRUE(thread_asleep_in(poller.tid, SYS_epoll_wait, epfd));
	ASSERT_EQ(1, write(pipe_fds[1], "r", 1));
	ASSERT_EQ(1, write(other[1], "p", 1));
	ASSERT_CALL_RETURNS(&reader);
	ASSERT_CALL_RETURNS(&poller);
	EXPECT_CALL_RET(&reader, 1, "pipe read");
	EXPECT_CALL_RET(&poller, 1, "epoll_wait");
	close(epfd);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	close(other[0]);
	close(other[1]);
}

TEST_HARNESS_MAIN
