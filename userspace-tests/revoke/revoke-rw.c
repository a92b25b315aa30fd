// SPDX-License-Identifier: GPL-2.0
/*
 * read, write, ioctl and lseek on /dev/test_revoke before and after its
 * files are revoked through debugfs, and when ->release() runs.
 *
 * A revoked file answers from the revoke core's default table
 * (fs/revoke.c, Documentation/filesystems/revoke.rst): read and write in
 * every form fail with ENODEV, so does every ioctl that reaches the
 * driver, and lseek stays a no-op. A read or write asleep in the driver
 * when the revoke comes is woken by the driver's kick and fails with
 * ENODEV as well. The revoke releases every open file at once; the last
 * close does not release it again. A new open gets a fresh, working file.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

/* An ioctl that the device does not know. */
#define UNKNOWN_IOCTL	_IO('R', 0x7f)

FIXTURE(rw)
{
	int fd;
	struct revoke_call call;
};

FIXTURE_SETUP(rw)
{
	memset(&self->call, 0, sizeof(self->call));
	/* Start from a fresh generation: an empty buffer. */
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(rw)
{
	revoke_call_join(&self->call, REVOKE_WAKE_TIMEOUT_MS);
	close(self->fd);
}

static long call_read(struct revoke_call *call)
{
	char buf[16];

	return read(call->fd, buf, sizeof(buf));
}

static long call_write(struct revoke_call *call)
{
	return write(call->fd, "w", 1);
}

TEST_F(rw, live_file_reads_back_what_was_written)
{
	char buf[16] = "";
	int avail = -1;

	EXPECT_EQ(5, write(self->fd, "hello", 5));
	EXPECT_EQ(0, ioctl(self->fd, FIONREAD, &avail));
	EXPECT_EQ(5, avail);
	EXPECT_EQ(5, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	/* Empty again: a non-blocking read says so instead of sleeping. */
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	EXPECT_ERRNO(EAGAIN, read(self->fd, buf, sizeof(buf)));
	EXPECT_ERRNO(ENOTTY, ioctl(self->fd, UNKNOWN_IOCTL));
}

TEST_F(rw, read_asleep_is_woken_by_revoke_with_enodev)
{
	long kicks0, kicks;

	ASSERT_COUNTER(kicks0, "kicks");
	/* the device is empty: the read sleeps */
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_read, self->fd, NULL,
				    SYS_read);
	EXPECT_CALL_ERRNO(&self->call, ENODEV, "read");
	/* The reader was inside the driver: the core kicked it out. */
	ASSERT_COUNTER(kicks, "kicks");
	EXPECT_LT(kicks0, kicks);
}

TEST_F(rw, write_asleep_is_woken_by_revoke_with_enodev)
{
	/* the device is full: the write sleeps */
	ASSERT_LT(0, revoke_dev_fill(self->fd));
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, call_write, self->fd, NULL,
				    SYS_write);
	EXPECT_CALL_ERRNO(&self->call, ENODEV, "write");
}

TEST_F(rw, every_form_of_read_fails_with_enodev_after_revoke)
{
	char buf[16];
	struct iovec iov = { buf, sizeof(buf) };

	/* Data waiting makes no difference. */
	ASSERT_EQ(3, write(self->fd, "abc", 3));
	ASSERT_REVOKED();
	EXPECT_ERRNO(ENODEV, read(self->fd, buf, sizeof(buf)));
	EXPECT_ERRNO(ENODEV, readv(self->fd, &iov, 1));
	EXPECT_ERRNO(ENODEV, pread(self->fd, buf, sizeof(buf), 0));
	EXPECT_ERRNO(ENODEV, preadv2(self->fd, &iov, 1, -1, RWF_NOWAIT));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	EXPECT_ERRNO(ENODEV, read(self->fd, buf, sizeof(buf)));
}

TEST_F(rw, every_form_of_write_fails_with_enodev_after_revoke)
{
	struct iovec iov = { "abc", 3 };

	ASSERT_REVOKED();
	EXPECT_ERRNO(ENODEV, write(self->fd, "abc", 3));
	EXPECT_ERRNO(ENODEV, writev(self->fd, &iov, 1));
	EXPECT_ERRNO(ENODEV, pwrite(self->fd, "abc", 3, 0));
	EXPECT_ERRNO(ENODEV, pwritev2(self->fd, &iov, 1, -1, RWF_NOWAIT));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	EXPECT_ERRNO(ENODEV, write(self->fd, "abc", 3));
}

TEST_F(rw, driver_ioctls_fail_with_enodev_after_revoke)
{
	int avail = -1;

	ASSERT_EQ(2, write(self->fd, "ab", 2));
	ASSERT_EQ(0, ioctl(self->fd, FIONREAD, &avail));
	ASSERT_EQ(2, avail);
	ASSERT_REVOKED();
	EXPECT_ERRNO(ENODEV, ioctl(self->fd, FIONREAD, &avail));
	EXPECT_ERRNO(ENODEV, ioctl(self->fd, UNKNOWN_IOCTL));
}

TEST_F(rw, vfs_ioctls_still_work_after_revoke)
{
	int on = 1;

	ASSERT_REVOKED();
	/* FIONBIO and FIOCLEX never reach the driver. */
	EXPECT_EQ(0, ioctl(self->fd, FIONBIO, &on));
	EXPECT_EQ(O_NONBLOCK, fcntl(self->fd, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(0, ioctl(self->fd, FIONCLEX));
	EXPECT_EQ(0, fcntl(self->fd, F_GETFD) & FD_CLOEXEC);
}

TEST_F(rw, lseek_is_a_noop_before_and_after_revoke)
{
	EXPECT_EQ(0, lseek(self->fd, 100, SEEK_SET));
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR));
	ASSERT_REVOKED();
	EXPECT_EQ(0, lseek(self->fd, 100, SEEK_SET));
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_END));
}

TEST_F(rw, last_close_of_a_live_file_releases_it_once)
{
	long rel0, rel;
	int fd2;

	ASSERT_COUNTER(rel0, "releases");
	fd2 = dup(self->fd);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0, rel) TH_LOG("released with a descriptor left");
	EXPECT_EQ(0, close(fd2));
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 1, rel);
}

TEST_F(rw, revoke_releases_every_open_file_once_and_close_does_not)
{
	long opens, rel0, rel;
	int fd2, fd3;

	fd2 = revoke_dev_open(0);
	ASSERT_LE(0, fd2);
	fd3 = dup(self->fd);	/* the same file as fd */
	ASSERT_LE(0, fd3);
	ASSERT_COUNTER(rel0, "releases");
	ASSERT_REVOKED();
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 2, rel);
	/* Every file ever opened is released now. */
	ASSERT_COUNTER(opens, "opens");
	EXPECT_EQ(opens, rel);

	EXPECT_EQ(0, close(fd3));
	EXPECT_EQ(0, close(fd2));
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 2, rel);
}

TEST_F(rw, revoke_with_nobody_inside_does_not_kick)
{
	long kicks0, kicks;

	ASSERT_COUNTER(kicks0, "kicks");
	ASSERT_REVOKED();
	ASSERT_COUNTER(kicks, "kicks");
	EXPECT_EQ(kicks0, kicks);
}

TEST_F(rw, reopen_after_revoke_gets_a_fresh_working_file)
{
	char buf[16] = "";
	int avail = -1, fd2;

	ASSERT_EQ(3, write(self->fd, "old", 3));
	ASSERT_REVOKED();
	fd2 = revoke_dev_open(0);
	ASSERT_LE(0, fd2) TH_LOG("reopen: %s", strerror(-fd2));
	/* What the old generation held is gone with it. */
	EXPECT_EQ(0, ioctl(fd2, FIONREAD, &avail));
	EXPECT_EQ(0, avail);
	EXPECT_EQ(3, write(fd2, "new", 3));
	EXPECT_EQ(3, read(fd2, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "new", 3));
	/* The old file stays revoked. */
	EXPECT_ERRNO(ENODEV, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(0, close(fd2));
}

TEST_HARNESS_MAIN
