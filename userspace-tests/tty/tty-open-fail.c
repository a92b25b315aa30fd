// SPDX-License-Identifier: GPL-2.0
/*
 * An open of a tty that fails leaves no side effect: a session leader
 * with no controlling terminal opens a pty slave without O_NOCTTY while
 * the Nth slab allocation of the open fails (fail-nth, with failslab's
 * ignore-gfp-wait off so that GFP_KERNEL allocations count), for every N
 * until the open makes fewer allocations. An open that fails must leave
 * the caller without a controlling terminal (/dev/tty: ENXIO); one that
 * succeeds must have made the tty its controlling terminal.
 *
 * Pinned as Linux 6.12 has it. The series adds an allocation to the open
 * of a tty (its struct revoke, in the last step), after which nothing may
 * have been done that the failure would have to undo.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"	/* alsa_sysfs_write(), for debugfs too */
#include "tty-helpers.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define IGNORE_GFP_WAIT	"/sys/kernel/debug/failslab/ignore-gfp-wait"
/* Quiet: a forced failure's stack in the log would read as a report */
#define VERBOSE		"/sys/kernel/debug/failslab/verbose"
/* More than any open of a pty slave allocates */
#define MAX_NTH		200

/* What a child reports in its exit status */
enum {
	OPEN_FAILED	= 1,	/* with ENOMEM */
	INJECTED	= 2,	/* the Nth allocation was failed */
	HAS_CTTY	= 4,
	CHILD_ERROR	= 64,	/* anything else went wrong */
};

/* In a new session: open @path with its Nth allocation failed. */
static int open_failing_nth(const char *path, int nth)
{
	int fail_fd, fd, tty, status = 0;
	char buf[16];
	ssize_t n;

	if (setsid() < 0)
		return CHILD_ERROR;
	fail_fd = open(FAIL_NTH, O_RDWR);
	if (fail_fd < 0)
		return CHILD_ERROR;
	snprintf(buf, sizeof(buf), "%d", nth);
	if (write(fail_fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		return CHILD_ERROR;
	fd = open(path, O_RDWR);
	if (fd < 0 && errno != ENOMEM)
		return CHILD_ERROR;
	if (fd < 0)
		status |= OPEN_FAILED;
	/* What is left of the count: 0 once the failure was injected */
	n = pread(fail_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return CHILD_ERROR;
	buf[n] = '\0';
	if (write(fail_fd, "0", 1) != 1)
		return CHILD_ERROR;
	if (!strtol(buf, NULL, 10))
		status |= INJECTED;
	tty = open("/dev/tty", O_RDWR);
	if (tty >= 0)
		status |= HAS_CTTY;
	else if (errno != ENXIO)
		return CHILD_ERROR;
	return status;
}

FIXTURE(open_fail)
{
	struct tty_dev dev;
	int slave;
};

FIXTURE_SETUP(open_fail)
{
	ASSERT_EQ(0, alsa_sysfs_write(IGNORE_GFP_WAIT, "N"))
		TH_LOG("%s: needs CONFIG_FAILSLAB and "
		       "CONFIG_FAULT_INJECTION_DEBUG_FS", IGNORE_GFP_WAIT);
	ASSERT_EQ(0, alsa_sysfs_write(VERBOSE, "0"));
	ASSERT_EQ(0, access(FAIL_NTH, W_OK))
		TH_LOG("%s: needs CONFIG_FAULT_INJECTION", FAIL_NTH);
	/* The session leaders' exits hang the slave up */
	signal(SIGHUP, SIG_IGN);
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->slave);
}

FIXTURE_TEARDOWN(open_fail)
{
	alsa_sysfs_write(IGNORE_GFP_WAIT, "Y");
	alsa_sysfs_write(VERBOSE, "2");
	close(self->slave);
	tty_dev_fini(&self->dev);
}

TEST_F(open_fail, failed_open_leaves_no_controlling_tty)
{
	int nth, status, failed = 0;
	pid_t pid;

	for (nth = 1; nth <= MAX_NTH; nth++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			_exit(open_failing_nth(self->dev.path, nth));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		status = WEXITSTATUS(status);
		ASSERT_FALSE(status & CHILD_ERROR)
			TH_LOG("the child for N=%d failed", nth);
		if (status & OPEN_FAILED) {
			failed++;
			EXPECT_FALSE(status & HAS_CTTY)
				TH_LOG("the open failed at allocation %d, but "
				       "made the tty the controlling terminal",
				       nth);
		} else {
			EXPECT_TRUE(status & HAS_CTTY)
				TH_LOG("N=%d: opened, no controlling terminal",
				       nth);
		}
		if (!(status & INJECTED))
			break;
	}
	TH_LOG("%d allocations failed in turn, %d opens failed",
	       nth - 1, failed);
	ASSERT_GT(MAX_NTH, nth) TH_LOG("the open never ran out of allocations");
	/* Some failed allocation must have failed the open itself */
	EXPECT_LT(0, failed);
}

TEST_HARNESS_MAIN
