// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring reads and polls on /dev/test_revoke when its files are
 * revoked through debugfs.
 *
 * A read of the empty device does not sleep in the driver: the device
 * supports IOCB_NOWAIT, so io_uring gets -EAGAIN and waits in its own
 * poll on the device's wait queue, as a IORING_OP_POLL_ADD does. Such a
 * request is a waiter outside methods (Documentation/filesystems/
 * revoke.rst): once the revoke is done the driver frees the queue with
 * wake_up_pollfree(), and the request is expected to poll again and get
 * the revoked table's answer, as poll() and epoll do: -ENODEV for the
 * read, POLLERR | POLLHUP for the poll. Requests submitted after the
 * revoke get the same answers at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

/* How long a request must stay pending to count as waiting. */
#define PENDING_MS	300

FIXTURE(uring)
{
	int fd;
	struct io_uring ring;
	bool ring_ready;
	char buf[64];
};

FIXTURE_SETUP(uring)
{
	int ret;

	self->ring_ready = false;
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ret = io_uring_queue_init(8, &self->ring, 0);
	ASSERT_EQ(0, ret) TH_LOG("io_uring_queue_init: %s", strerror(-ret));
	self->ring_ready = true;
}

FIXTURE_TEARDOWN(uring)
{
	if (self->ring_ready)
		io_uring_queue_exit(&self->ring);
	close(self->fd);
}

static void submit_read(struct __test_metadata *_metadata,
			FIXTURE_DATA(uring) *self)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	ASSERT_NE(NULL, sqe);
	io_uring_prep_read(sqe, self->fd, self->buf, sizeof(self->buf), 0);
	ASSERT_EQ(1, io_uring_submit(&self->ring));
}

static void submit_poll(struct __test_metadata *_metadata,
			FIXTURE_DATA(uring) *self, unsigned int events)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	ASSERT_NE(NULL, sqe);
	io_uring_prep_poll_add(sqe, self->fd, events);
	ASSERT_EQ(1, io_uring_submit(&self->ring));
}

/* Waits up to ms for the one completion; returns its res, or -ETIME. */
static int wait_res(FIXTURE_DATA(uring) *self, int ms)
{
	struct __kernel_timespec ts = { ms / 1000, (ms % 1000) * 1000000LL };
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_wait_cqe_timeout(&self->ring, &cqe, &ts);
	if (ret)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&self->ring, cqe);
	return ret;
}

#define ASSERT_PENDING(self)						\
	ASSERT_EQ(-ETIME, wait_res(self, PENDING_MS))			\
		TH_LOG("the request completed on the empty device")

TEST_F(uring, live_read_in_flight_completes_when_data_arrives)
{
	int fd2 = revoke_dev_open(0);

	ASSERT_LE(0, fd2);
	submit_read(_metadata, self);
	ASSERT_PENDING(self);
	ASSERT_EQ(4, write(fd2, "data", 4));
	EXPECT_EQ(4, wait_res(self, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(0, memcmp(self->buf, "data", 4));
	close(fd2);
}

TEST_F(uring, read_in_flight_completes_with_enodev_after_revoke)
{
	int res;

	submit_read(_metadata, self);
	ASSERT_PENDING(self);
	ASSERT_REVOKED();
	res = wait_res(self, REVOKE_WAKE_TIMEOUT_MS);
	EXPECT_EQ(-ENODEV, res) TH_LOG("read completed with %d (%s)", res,
				       strerror(-res));
}

TEST_F(uring, read_after_revoke_completes_with_enodev)
{
	int res;

	ASSERT_REVOKED();
	submit_read(_metadata, self);
	res = wait_res(self, REVOKE_WAKE_TIMEOUT_MS);
	EXPECT_EQ(-ENODEV, res) TH_LOG("read completed with %d (%s)", res,
				       strerror(-res));
}

TEST_F(uring, poll_in_flight_completes_with_err_hup_after_revoke)
{
	int res;

	submit_poll(_metadata, self, POLLIN);
	ASSERT_PENDING(self);
	ASSERT_REVOKED();
	res = wait_res(self, REVOKE_WAKE_TIMEOUT_MS);
	EXPECT_EQ(POLLERR | POLLHUP, res)
		TH_LOG("poll completed with %d (0x%x)", res, res);
}

TEST_F(uring, poll_after_revoke_completes_with_err_hup)
{
	int res;

	ASSERT_REVOKED();
	submit_poll(_metadata, self, POLLIN);
	res = wait_res(self, REVOKE_WAKE_TIMEOUT_MS);
	EXPECT_EQ(POLLERR | POLLHUP, res)
		TH_LOG("poll completed with %d (0x%x)", res, res);
}

TEST_HARNESS_MAIN
