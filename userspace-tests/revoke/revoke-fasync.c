// SPDX-License-Identifier: GPL-2.0
/*
 * O_ASYNC (fasync) on /dev/test_revoke when its files are revoked through
 * debugfs.
 *
 * The device raises SIGIO for its O_ASYNC files when data arrives. The
 * revoke turns fasync off on every file it revokes, as the last close
 * would (Documentation/filesystems/revoke.rst): O_ASYNC is cleared, no
 * SIGIO comes from the revoke or afterwards, and asking for O_ASYNC again
 * fails with ENODEV from the revoked table. Closing the file afterwards
 * is clean and does not release it a second time.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

FIXTURE(fasync)
{
	int fd;		/* O_ASYNC, owned by this process */
	int fd2;	/* plain */
};

FIXTURE_SETUP(fasync)
{
	sigset_t sigio;

	self->fd2 = -1;
	/* A SIGIO shows up as pending instead of killing the test. */
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &sigio, NULL));
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	self->fd2 = revoke_dev_open(0);
	ASSERT_LE(0, self->fd2) TH_LOG("open: %s", strerror(-self->fd2));
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_ASYNC));
}

FIXTURE_TEARDOWN(fasync)
{
	close(self->fd2);
	close(self->fd);
}

/* Takes a pending SIGIO, waiting up to ms; returns whether there was one. */
static bool take_sigio(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	sigset_t sigio;

	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	return sigtimedwait(&sigio, NULL, &ts) == SIGIO;
}

TEST_F(fasync, data_arriving_raises_sigio_on_a_live_file)
{
	EXPECT_FALSE(take_sigio(0));
	ASSERT_EQ(1, write(self->fd2, "x", 1));
	EXPECT_TRUE(take_sigio(1000));
}

TEST_F(fasync, revoke_turns_o_async_off_without_a_sigio)
{
	int fd3;

	ASSERT_REVOKED();
	EXPECT_EQ(0, fcntl(self->fd, F_GETFL) & O_ASYNC);
	EXPECT_FALSE(take_sigio(200));
	/* Data on the next generation is no business of the old file. */
	fd3 = revoke_dev_open(0);
	ASSERT_LE(0, fd3);
	ASSERT_EQ(1, write(fd3, "x", 1));
	EXPECT_FALSE(take_sigio(200));
	close(fd3);
}

TEST_F(fasync, asking_for_o_async_after_revoke_fails_with_enodev)
{
	int on = 1;

	ASSERT_REVOKED();
	EXPECT_ERRNO(ENODEV, fcntl(self->fd2, F_SETFL, O_ASYNC));
	EXPECT_ERRNO(ENODEV, ioctl(self->fd2, FIOASYNC, &on));
	EXPECT_EQ(0, fcntl(self->fd2, F_GETFL) & O_ASYNC);
}

TEST_F(fasync, close_after_revoke_is_clean_and_releases_nothing_more)
{
	long rel0, rel;

	ASSERT_COUNTER(rel0, "releases");
	ASSERT_REVOKED();
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 2, rel);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(0, close(self->fd2));
	self->fd2 = -1;
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 2, rel);
	EXPECT_FALSE(take_sigio(0));
}

TEST_HARNESS_MAIN
