// SPDX-License-Identifier: GPL-2.0
/*
 * The one rule of revoke: never revoke_it() from a method of a file it
 * revokes, or it waits for itself. lockdep must say so, not leave a
 * silent deadlock: /dev/test_revoke breaks the rule on request (debugfs
 * revoke_in_next_ioctl), and the kernel log must then carry lockdep's
 * report. The child that broke the rule waits for itself until it is
 * killed, which its wait allows (revoke_it_killable()); the boot that
 * runs this test runs nothing else (userspace-tests/lockdep.suite).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

#define REPORT		"possible recursive locking detected"
#define REPORT_WAIT_MS	20000
#define KILL_WAIT_MS	5000

/* Reads /dev/kmsg from now on until @text shows up or time runs out. */
static bool kmsg_waits_for(int kmsg, const char *text, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	char record[1024];
	ssize_t n;

	while (now_ms() < end) {
		n = read(kmsg, record, sizeof(record) - 1);
		if (n < 0) {
			if (errno == EAGAIN || errno == EPIPE)
				sleep_ms(100);
			continue;
		}
		record[n] = '\0';
		if (strstr(record, text))
			return true;
	}
	return false;
}

TEST(revoke_from_inside_a_method_is_reported_by_lockdep)
{
	int kmsg, knob, fd, avail, status;
	pid_t child;

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	knob = open(REVOKE_DEBUGFS "/revoke_in_next_ioctl", O_WRONLY);
	ASSERT_LE(0, knob);
	ASSERT_EQ(2, write(knob, "Y\n", 2));
	close(knob);

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		fd = revoke_dev_open(0);
		/* Revokes its own file from inside ioctl(): waits for itself. */
		_exit(fd < 0 ? 1 : ioctl(fd, FIONREAD, &avail));
	}
	EXPECT_TRUE(kmsg_waits_for(kmsg, REPORT, REPORT_WAIT_MS));
	close(kmsg);

	ASSERT_EQ(0, waitpid(child, &status, WNOHANG))
		TH_LOG("the revoke from inside the method returned");
	EXPECT_TRUE(kill_and_reap(child, KILL_WAIT_MS))
		TH_LOG("the revoke waiting for itself cannot be killed");
}

TEST_HARNESS_MAIN
