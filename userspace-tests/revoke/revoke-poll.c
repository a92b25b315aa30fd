// SPDX-License-Identifier: GPL-2.0
/*
 * poll(), select() and epoll on /dev/test_revoke when its files are
 * revoked through debugfs.
 *
 * A poller asleep on the device is queued on wait queues of the device's
 * generation, which the revoke frees: the driver calls
 * wake_up_pollfree() on them first. Nobody is inside a driver method
 * then, so the core does not kick and that POLLFREE wakeup is the only
 * one the poller gets. poll() and select() let go of the queue and poll
 * again, epoll does the same (Documentation/filesystems/revoke.rst,
 * "Waiters outside methods"), and all of them then see the revoked
 * table's answer, POLLERR | POLLHUP: poll() reports just those two,
 * select() marks the file readable and writable, epoll delivers
 * EPOLLERR | EPOLLHUP. An epoll instance watching a revoked file keeps
 * working, and the file can be taken out of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

FIXTURE(pollers)
{
	int fd;
	int ep;
	int pipefd[2];
	struct revoke_call call;
	struct pollfd pfd;
	fd_set rfds, wfds, efds;
	struct epoll_event ev;
};

FIXTURE_SETUP(pollers)
{
	memset(&self->call, 0, sizeof(self->call));
	self->ep = self->pipefd[0] = self->pipefd[1] = -1;
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(pollers)
{
	revoke_call_join(&self->call, REVOKE_WAKE_TIMEOUT_MS);
	close(self->pipefd[0]);
	close(self->pipefd[1]);
	close(self->ep);
	close(self->fd);
}

/* poll() for input on the empty device, without a time limit */
static long call_poll(struct revoke_call *call)
{
	struct pollfd *pfd = call->arg;

	pfd->fd = call->fd;
	pfd->events = POLLIN;
	pfd->revents = 0;
	return poll(pfd, 1, -1);
}

/* select() for input or an exception, without a time limit */
static long call_select(struct revoke_call *call)
{
	FIXTURE_DATA(pollers) *self = call->arg;

	FD_ZERO(&self->rfds);
	FD_ZERO(&self->wfds);
	FD_ZERO(&self->efds);
	FD_SET(call->fd, &self->rfds);
	FD_SET(call->fd, &self->efds);
	return select(call->fd + 1, &self->rfds, NULL, &self->efds, NULL);
}

static long call_epoll_wait(struct revoke_call *call)
{
	struct epoll_event *ev = call->arg;

	return epoll_wait(call->fd, ev, 1, -1);
}

static void add_to_epoll(struct __test_metadata *_metadata,
			 FIXTURE_DATA(pollers) *self, int fd, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	if (self->ep < 0) {
		self->ep = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_LE(0, self->ep);
	}
	ASSERT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_ADD, fd, &ev));
}

TEST_F(pollers, live_file_polls_writable_until_written)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLOUT };

	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLOUT, pfd.revents);
	ASSERT_EQ(1, write(self->fd, "x", 1));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN | POLLOUT, pfd.revents);
}

TEST_F(pollers, poll_asleep_is_woken_by_revoke_with_err_hup)
{
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_poll, self->fd,
				    &self->pfd, SYS_poll);
	EXPECT_CALL_RET(&self->call, 1, "poll");
	EXPECT_EQ(POLLERR | POLLHUP, self->pfd.revents)
		TH_LOG("revents 0x%x", self->pfd.revents);
}

TEST_F(pollers, poll_after_revoke_reports_err_hup)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLOUT };

	ASSERT_REVOKED();
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLERR | POLLHUP, pfd.revents)
		TH_LOG("revents 0x%x", pfd.revents);
	pfd.events = 0;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLERR | POLLHUP, pfd.revents);
}

TEST_F(pollers, select_asleep_is_woken_by_revoke_as_readable)
{
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_select, self->fd, self,
				    SYS_pselect6);
	EXPECT_CALL_RET(&self->call, 1, "select");
	/* POLLERR | POLLHUP count as readable, not as an exception. */
	EXPECT_TRUE(FD_ISSET(self->fd, &self->rfds));
	EXPECT_FALSE(FD_ISSET(self->fd, &self->efds));
}

TEST_F(pollers, select_after_revoke_reports_readable_and_writable)
{
	struct timeval tv = { 0, 0 };

	ASSERT_REVOKED();
	FD_ZERO(&self->rfds);
	FD_ZERO(&self->wfds);
	FD_ZERO(&self->efds);
	FD_SET(self->fd, &self->rfds);
	FD_SET(self->fd, &self->wfds);
	FD_SET(self->fd, &self->efds);
	EXPECT_EQ(2, select(self->fd + 1, &self->rfds, &self->wfds,
			    &self->efds, &tv));
	EXPECT_TRUE(FD_ISSET(self->fd, &self->rfds));
	EXPECT_TRUE(FD_ISSET(self->fd, &self->wfds));
	EXPECT_FALSE(FD_ISSET(self->fd, &self->efds));
}

TEST_F(pollers, epoll_wait_asleep_gets_err_hup_from_revoke)
{
	add_to_epoll(_metadata, self, self->fd, EPOLLIN);
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_epoll_wait, self->ep,
				    &self->ev, SYS_epoll_wait);
	EXPECT_CALL_RET(&self->call, 1, "epoll_wait");
	EXPECT_EQ(self->fd, self->ev.data.fd);
	EXPECT_EQ(EPOLLERR | EPOLLHUP, (int)self->ev.events)
		TH_LOG("events 0x%x", self->ev.events);
}

TEST_F(pollers, epoll_keeps_reporting_err_hup_for_a_revoked_file)
{
	struct epoll_event ev = { 0 };

	add_to_epoll(_metadata, self, self->fd, EPOLLIN | EPOLLOUT);
	ASSERT_EQ(1, epoll_wait(self->ep, &ev, 1, 0));
	ASSERT_EQ(EPOLLOUT, (int)ev.events);
	ASSERT_REVOKED();
	/* Level-triggered: the same answer every time it is asked. */
	for (int i = 0; i < 3; i++) {
		memset(&ev, 0, sizeof(ev));
		EXPECT_EQ(1, epoll_wait(self->ep, &ev, 1, 0));
		EXPECT_EQ(EPOLLERR | EPOLLHUP, (int)ev.events)
			TH_LOG("events 0x%x", ev.events);
	}
}

TEST_F(pollers, epoll_still_watches_other_files_after_a_revoke)
{
	struct epoll_event ev[2];
	bool seen_pipe = false;
	int n;

	ASSERT_EQ(0, pipe2(self->pipefd, O_CLOEXEC));
	add_to_epoll(_metadata, self, self->fd, EPOLLIN);
	add_to_epoll(_metadata, self, self->pipefd[0], EPOLLIN);
	ASSERT_REVOKED();
	ASSERT_EQ(1, write(self->pipefd[1], "p", 1));
	n = epoll_wait(self->ep, ev, 2, 1000);
	EXPECT_EQ(2, n);
	for (int i = 0; i < n; i++) {
		if (ev[i].data.fd == self->pipefd[0]) {
			seen_pipe = true;
			EXPECT_EQ(EPOLLIN, (int)ev[i].events);
		} else {
			EXPECT_EQ(self->fd, ev[i].data.fd);
			EXPECT_EQ(EPOLLERR | EPOLLHUP, (int)ev[i].events);
		}
	}
	EXPECT_TRUE(seen_pipe);
}

TEST_F(pollers, epoll_ctl_del_of_a_revoked_file_works)
{
	struct epoll_event ev;

	ASSERT_EQ(0, pipe2(self->pipefd, O_CLOEXEC));
	add_to_epoll(_metadata, self, self->fd, EPOLLIN);
	add_to_epoll(_metadata, self, self->pipefd[0], EPOLLIN);
	ASSERT_REVOKED();
	EXPECT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_DEL, self->fd, NULL));
	EXPECT_EQ(0, epoll_wait(self->ep, &ev, 1, 0));
	/* And it can be watched again, for its revoked answer. */
	ev.events = EPOLLIN;
	ev.data.fd = self->fd;
	EXPECT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_ADD, self->fd, &ev));
	EXPECT_EQ(1, epoll_wait(self->ep, &ev, 1, 0));
	EXPECT_EQ(EPOLLERR | EPOLLHUP, (int)ev.events);
}

TEST_HARNESS_MAIN
