// SPDX-License-Identifier: GPL-2.0
/*
 * Linux AIO (io_submit) reads and polls on /dev/test_revoke when its
 * files are revoked through debugfs.
 *
 * The device completes reads synchronously, so an AIO read of the empty
 * device sleeps inside io_submit(), in the driver: the revoke kicks it
 * and its completion event carries -ENODEV. An IOCB_CMD_POLL waits
 * outside the driver, on the wait queue the revoke frees with
 * wake_up_pollfree(); like poll() it is expected to end with the revoked
 * table's answer, POLLERR | POLLHUP (Documentation/filesystems/
 * revoke.rst, "Waiters outside methods"). Requests submitted after the
 * revoke get the same answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

#define PENDING_MS	300

FIXTURE(aio)
{
	int fd;
	aio_context_t ctx;
	struct iocb iocb;
	struct revoke_call call;
	char buf[64];
};

static long sys_io_submit(aio_context_t ctx, long nr, struct iocb **iocbs)
{
	return syscall(SYS_io_submit, ctx, nr, iocbs);
}

/* Waits up to ms for one event; returns 1, 0 on timeout, or -errno. */
static long get_event(aio_context_t ctx, struct io_event *ev, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long ret;

	ret = syscall(SYS_io_getevents, ctx, 1, 1, ev, &ts);
	return ret < 0 ? -errno : ret;
}

FIXTURE_SETUP(aio)
{
	memset(&self->call, 0, sizeof(self->call));
	memset(&self->iocb, 0, sizeof(self->iocb));
	self->ctx = 0;
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ASSERT_EQ(0, syscall(SYS_io_setup, 8, &self->ctx))
		TH_LOG("io_setup: %s", strerror(errno));
}

FIXTURE_TEARDOWN(aio)
{
	revoke_call_join(&self->call, REVOKE_WAKE_TIMEOUT_MS);
	if (self->ctx)
		syscall(SYS_io_destroy, self->ctx);
	close(self->fd);
}

static void prep(FIXTURE_DATA(aio) *self, int opcode)
{
	memset(&self->iocb, 0, sizeof(self->iocb));
	self->iocb.aio_fildes = self->fd;
	self->iocb.aio_lio_opcode = opcode;
	self->iocb.aio_data = 0x5eed;
	if (opcode == IOCB_CMD_PREAD) {
		self->iocb.aio_buf = (uintptr_t)self->buf;
		self->iocb.aio_nbytes = sizeof(self->buf);
	} else {
		self->iocb.aio_buf = POLLIN;
	}
}

static long call_io_submit(struct revoke_call *call)
{
	FIXTURE_DATA(aio) *self = call->arg;
	struct iocb *iocbs[1] = { &self->iocb };

	return sys_io_submit(self->ctx, 1, iocbs);
}

static void submit(struct __test_metadata *_metadata,
		   FIXTURE_DATA(aio) *self)
{
	struct iocb *iocbs[1] = { &self->iocb };

	ASSERT_EQ(1, sys_io_submit(self->ctx, 1, iocbs))
		TH_LOG("io_submit: %s", strerror(errno));
}

TEST_F(aio, read_asleep_in_io_submit_is_woken_with_enodev)
{
	struct io_event ev = { 0 };

	prep(self, IOCB_CMD_PREAD);
	/* the device is empty: io_submit sleeps */
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_io_submit, self->fd,
				    self, SYS_io_submit);
	EXPECT_CALL_RET(&self->call, 1, "io_submit");
	ASSERT_EQ(1, get_event(self->ctx, &ev, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(0x5eed, (int)ev.data);
	EXPECT_EQ(-ENODEV, ev.res) TH_LOG("res %lld", (long long)ev.res);
}

TEST_F(aio, read_after_revoke_completes_with_enodev)
{
	struct io_event ev = { 0 };

	ASSERT_REVOKED();
	prep(self, IOCB_CMD_PREAD);
	submit(_metadata, self);
	ASSERT_EQ(1, get_event(self->ctx, &ev, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(-ENODEV, ev.res) TH_LOG("res %lld", (long long)ev.res);
}

TEST_F(aio, poll_in_flight_completes_with_err_hup_after_revoke)
{
	struct io_event ev = { 0 };

	prep(self, IOCB_CMD_POLL);
	submit(_metadata, self);
	ASSERT_EQ(0, get_event(self->ctx, &ev, PENDING_MS))
		TH_LOG("the poll completed on the empty device");
	ASSERT_REVOKED();
	ASSERT_EQ(1, get_event(self->ctx, &ev, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(POLLERR | POLLHUP, ev.res)
		TH_LOG("res 0x%llx", (long long)ev.res);
}

TEST_F(aio, poll_after_revoke_completes_with_err_hup)
{
	struct io_event ev = { 0 };

	ASSERT_REVOKED();
	prep(self, IOCB_CMD_POLL);
	submit(_metadata, self);
	ASSERT_EQ(1, get_event(self->ctx, &ev, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(POLLERR | POLLHUP, ev.res)
		TH_LOG("res 0x%llx", (long long)ev.res);
}

TEST_HARNESS_MAIN
