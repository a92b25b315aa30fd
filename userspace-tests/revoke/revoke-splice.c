// SPDX-License-Identifier: GPL-2.0
/*
 * splice() between a pipe and /dev/test_revoke when the device's files
 * are revoked through debugfs.
 *
 * The device splices through its ->read_iter and ->write_iter
 * (copy_splice_read(), iter_file_splice_write()). A splice asleep in the
 * driver, reading the empty device or writing the full one, is kicked by
 * the revoke and fails with ENODEV, as read and write do. A splice
 * started after the revoke fails with ENODEV too, in both directions.
 *
 * A splice from an empty pipe into the device sleeps on the pipe, inside
 * the device's ->splice_write(): the revoke must not wait for data that
 * may never come (revoke_it() returns once every thread has left the
 * device's methods, and the driver's kick cannot wake a pipe).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

/* How long the revoke may take while a splice waits on a pipe. */
#define REVOKE_DONE_MS	5000

FIXTURE(splice)
{
	int fd;
	int pipefd[2];
	struct revoke_call call;
	struct revoke_call revoker;
};

FIXTURE_SETUP(splice)
{
	memset(&self->call, 0, sizeof(self->call));
	memset(&self->revoker, 0, sizeof(self->revoker));
	self->pipefd[0] = self->pipefd[1] = -1;
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ASSERT_EQ(0, pipe2(self->pipefd, O_CLOEXEC));
}

FIXTURE_TEARDOWN(splice)
{
	/* Let a splice still waiting on the pipe go. */
	close(self->pipefd[1]);
	revoke_call_join(&self->call, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&self->revoker, REVOKE_WAKE_TIMEOUT_MS);
	close(self->pipefd[0]);
	close(self->fd);
}

/* From the device into the pipe. */
static long call_splice_in(struct revoke_call *call)
{
	int *pipefd = call->arg;

	return splice(call->fd, NULL, pipefd[1], NULL, 16, 0);
}

/* From the pipe into the device. */
static long call_splice_out(struct revoke_call *call)
{
	int *pipefd = call->arg;

	return splice(pipefd[0], NULL, call->fd, NULL, 16, 0);
}

static long call_revoke(struct revoke_call *call)
{
	int ret = revoke_dev_revoke();

	errno = -ret;
	return ret ? -1 : 0;
}

TEST_F(splice, live_splice_moves_data_both_ways)
{
	char buf[8] = "";

	ASSERT_EQ(4, write(self->pipefd[1], "ping", 4));
	EXPECT_EQ(4, splice(self->pipefd[0], NULL, self->fd, NULL, 16, 0));
	EXPECT_EQ(4, splice(self->fd, NULL, self->pipefd[1], NULL, 16, 0));
	EXPECT_EQ(4, read(self->pipefd[0], buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "ping", 4));
}

/* A splice() asleep in the device is woken by a revoke, with -ENODEV. */
static void expect_splice_woken(struct __test_metadata *_metadata,
				FIXTURE_DATA(splice) *self, revoke_call_fn fn)
{
	ASSERT_CALL_WOKEN_BY_REVOKE(&self->call, fn, self->fd, self->pipefd,
				    SYS_splice);
	EXPECT_CALL_ERRNO(&self->call, ENODEV, "splice");
}

TEST_F(splice, splice_from_device_asleep_is_woken_by_revoke_with_enodev)
{
	expect_splice_woken(_metadata, self, call_splice_in);
}

TEST_F(splice, splice_to_device_asleep_is_woken_by_revoke_with_enodev)
{
	ASSERT_LT(0, revoke_dev_fill(self->fd));
	ASSERT_EQ(4, write(self->pipefd[1], "more", 4));
	expect_splice_woken(_metadata, self, call_splice_out);
}

TEST_F(splice, splice_after_revoke_fails_with_enodev_both_ways)
{
	ASSERT_REVOKED();
	EXPECT_ERRNO(ENODEV, splice(self->fd, NULL, self->pipefd[1],
					 NULL, 16, 0));
	ASSERT_EQ(4, write(self->pipefd[1], "data", 4));
	EXPECT_ERRNO(ENODEV, splice(self->pipefd[0], NULL, self->fd,
					 NULL, 16, 0));
}

TEST_F(splice, splice_waiting_on_an_empty_pipe_does_not_hold_up_revoke)
{
	bool revoked_in_time;

	ASSERT_EQ(0, revoke_call_start(&self->call, call_splice_out, self->fd,
				       self->pipefd));
	ASSERT_EQ(0, revoke_call_wait_asleep(&self->call, SYS_splice));
	ASSERT_EQ(0, revoke_call_start(&self->revoker, call_revoke, -1,
				       NULL));
	revoked_in_time = !revoke_call_join(&self->revoker, REVOKE_DONE_MS);
	EXPECT_TRUE(revoked_in_time)
		TH_LOG("revoke still waiting %d ms later for a splice asleep on a pipe",
		       REVOKE_DONE_MS);
	/* Feed the pipe: the splice goes on and finds the file revoked. */
	ASSERT_EQ(1, write(self->pipefd[1], "x", 1));
	ASSERT_CALL_RETURNS(&self->call);
	EXPECT_CALL_ERRNO(&self->call, ENODEV, "splice");
	ASSERT_EQ(0, revoke_call_join(&self->revoker, REVOKE_WAKE_TIMEOUT_MS));
	EXPECT_EQ(0, self->revoker.ret);
}

TEST_HARNESS_MAIN
