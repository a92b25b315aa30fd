// SPDX-License-Identifier: GPL-2.0
/*
 * A revoke does not wait on a sleep that nothing but the driver ends.
 *
 * The test device's ioctl _IO('R', 3) sleeps uninterruptibly until the
 * debugfs file "unstick" is written: neither the owner's kick nor the
 * revoke's interruption reaches it, the driver bug that a revoke must
 * survive. The revoke that must not wait (revoke_it_async(), debugfs
 * "revoke_async") returns with the sleeper still inside: its file fails
 * at once, the device opens again into a new generation that works and
 * can itself be revoked, and the old file is released when the sleeper
 * leaves. The revoke that waits (revoke_it_killable(), debugfs "revoke")
 * waits for the sleeper, but its waiter can be killed; the release again
 * comes when the sleeper leaves.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

/* lib/test_revoke.c: sleeps uninterruptibly until unstuck */
#define SLEEP_STUCK		_IO('R', 3)
/* How long a revoke that must not wait may take here. */
#define REVOKE_RETURNS_MS	5000

FIXTURE(stuck)
{
	int fd;
	struct revoke_call sleeper;
	struct revoke_call revoker;
};

FIXTURE_SETUP(stuck)
{
	memset(&self->sleeper, 0, sizeof(self->sleeper));
	memset(&self->revoker, 0, sizeof(self->revoker));
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(stuck)
{
	revoke_dev_knob("unstick");
	revoke_call_join(&self->sleeper, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&self->revoker, REVOKE_WAKE_TIMEOUT_MS);
	close(self->fd);
}

static long call_sleep_stuck(struct revoke_call *call)
{
	return ioctl(call->fd, SLEEP_STUCK);
}

static long call_knob(struct revoke_call *call)
{
	int ret = revoke_dev_knob(call->arg);

	errno = -ret;
	return ret ? -1 : 0;
}

/* Waits until @n threads sleep in SLEEP_STUCK: 0 or -ETIMEDOUT. */
static int wait_stuck(long n)
{
	long long end = now_ms() + REVOKE_SLEEP_TIMEOUT_MS;

	while (revoke_dev_counter("stuck") != n) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
	return 0;
}

/* Waits until the releases counter reaches @n: 0 or -ETIMEDOUT. */
static int wait_releases(long n)
{
	long long end = now_ms() + REVOKE_WAKE_TIMEOUT_MS;

	while (revoke_dev_counter("releases") < n) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
	return 0;
}

/* Whether @pid sleeps uninterruptibly (state D) in system call @nr. */
static bool asleep_uninterruptibly_in(pid_t pid, long nr)
{
	char path[64], buf[512], *state;
	long call;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return false;
	state = strrchr(buf, ')');
	if (!state || state[1] != ' ' || state[2] != 'D')
		return false;
	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return false;
	return sscanf(buf, "%ld", &call) == 1 && call == nr;
}

/* Runs the write to debugfs @knob in a thread, which must return soon. */
#define ASSERT_KNOB_RETURNS(self, knob)					\
	do {								\
		ASSERT_EQ(0, revoke_call_start(&(self)->revoker,	\
					       call_knob, -1, knob));	\
		ASSERT_EQ(0, revoke_call_join(&(self)->revoker,		\
					      REVOKE_RETURNS_MS))	\
			TH_LOG("%s waits on the stuck sleeper", knob);	\
		ASSERT_EQ(0, (self)->revoker.ret)			\
			TH_LOG("%s: %s", knob,				\
			       strerror((self)->revoker.err));		\
	} while (0)

/* Puts the fixture's sleeper into the stuck ioctl. */
#define ASSERT_SLEEPER_STUCK(self)					\
	do {								\
		ASSERT_EQ(0, revoke_call_start(&(self)->sleeper,	\
					       call_sleep_stuck,	\
					       (self)->fd, NULL));	\
		ASSERT_EQ(0, wait_stuck(1))				\
			TH_LOG("the ioctl does not get stuck");		\
	} while (0)

/* The sleeper leaves when told, and only then is its file released. */
#define ASSERT_RELEASED_WHEN_SLEEPER_LEAVES(self, releases)		\
	do {								\
		long _now;						\
									\
		ASSERT_COUNTER(_now, "releases");			\
		EXPECT_EQ(releases, _now)				\
			TH_LOG("released with a thread inside");	\
		EXPECT_EQ(1, revoke_dev_counter("stuck"));		\
		ASSERT_EQ(0, revoke_dev_knob("unstick"));		\
		ASSERT_CALL_RETURNS(&(self)->sleeper);			\
		EXPECT_CALL_RET(&(self)->sleeper, 0, "stuck ioctl");	\
		EXPECT_EQ(0, wait_releases((releases) + 1))		\
			TH_LOG("not released once the sleeper left");	\
	} while (0)

TEST_F(stuck, async_revoke_returns_and_releases_when_the_sleeper_leaves)
{
	long releases;
	char c = 'x';
	int fd;

	ASSERT_SLEEPER_STUCK(self);
	ASSERT_COUNTER(releases, "releases");
	ASSERT_KNOB_RETURNS(self, "revoke_async");

	/* Cut off, with the sleeper still inside */
	EXPECT_EQ(-1, read(self->fd, &c, 1));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(1, revoke_dev_counter("stuck"));

	/* The device opens again at once, and the new file works */
	fd = revoke_dev_open(0);
	ASSERT_LE(0, fd) TH_LOG("reopen: %s", strerror(-fd));
	EXPECT_EQ(1, write(fd, "y", 1));
	EXPECT_EQ(1, read(fd, &c, 1));
	EXPECT_EQ('y', c);
	/* Its revoke waits for none of the old generation's threads */
	ASSERT_KNOB_RETURNS(self, "revoke");
	EXPECT_EQ(-1, read(fd, &c, 1));
	EXPECT_EQ(ENODEV, errno);
	close(fd);

	ASSERT_RELEASED_WHEN_SLEEPER_LEAVES(self, releases + 1);
}

TEST_F(stuck, waiting_revoke_can_be_killed)
{
	long long end = now_ms() + REVOKE_SLEEP_TIMEOUT_MS;
	long releases;
	int status;
	pid_t pid;
	char c;

	ASSERT_SLEEPER_STUCK(self);
	ASSERT_COUNTER(releases, "releases");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(revoke_dev_revoke() ? 1 : 0);

	/* The revoke waits for the sleeper, killably */
	while (!asleep_uninterruptibly_in(pid, SYS_write) && now_ms() < end)
		sleep_ms(10);
	ASSERT_TRUE(asleep_uninterruptibly_in(pid, SYS_write))
		TH_LOG("the revoke does not wait for the sleeper");
	ASSERT_EQ(0, waitpid(pid, &status, WNOHANG));
	EXPECT_EQ(-1, read(self->fd, &c, 1));
	EXPECT_EQ(ENODEV, errno);

	ASSERT_TRUE(kill_and_reap(pid, REVOKE_RETURNS_MS))
		TH_LOG("the waiting revoke was not killed");

	ASSERT_RELEASED_WHEN_SLEEPER_LEAVES(self, releases);
}

TEST_HARNESS_MAIN
