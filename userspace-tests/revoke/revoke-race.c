// SPDX-License-Identifier: GPL-2.0
/*
 * Files of /dev/test_revoke opened, used and closed in a loop while
 * another process revokes them through debugfs as fast as it can.
 *
 * Each file's ->release() runs exactly once, whether the revoke or the
 * last close gets there first: when everything is closed the device's
 * "releases" counter has grown as much as its "opens". The same holds
 * for files with O_ASYNC, whose fasync entry the revoke or the close must
 * take away (the device checks that none is left when a generation ends:
 * "fasync_left"), for files kept open by a mapping that is touched and
 * unmapped, and while other threads sleep in read() on files of the same
 * generation.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

#define RACE_MS		3000	/* how long each variant races */
#define FILES		4	/* open at a time */
#define READERS		2	/* threads asleep in read(), if any */

FIXTURE(race)
{
	long opens0, releases0, fasync_left0;
	pid_t revoker;
	int stop_revoker;	/* closing it stops the revoker */
	int revokes;		/* the revoker writes its count here */
	pthread_t readers[READERS];
	int nr_readers;
	volatile bool stop_readers;
	volatile long reads_revoked;
};

FIXTURE_VARIANT(race)
{
	bool async;	/* files get O_ASYNC */
	bool mapped;	/* the first file is mapped, touched, unmapped */
	bool readers;	/* threads sleep in read() meanwhile */
};

FIXTURE_VARIANT_ADD(race, plain) { };
FIXTURE_VARIANT_ADD(race, o_async) { .async = true };
FIXTURE_VARIANT_ADD(race, mapped) { .mapped = true };
FIXTURE_VARIANT_ADD(race, readers_asleep) { .readers = true };

static void revoker_main(int stop, int out)
{
	long count = 0;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fcntl(stop, F_SETFL, O_NONBLOCK);
	/* Until the test closes its end of the stop pipe. */
	while (read(stop, &c, 1) < 0 && errno == EAGAIN) {
		if (revoke_dev_revoke())
			_exit(1);
		count++;
	}
	if (write(out, &count, sizeof(count)) != sizeof(count))
		_exit(1);
	_exit(0);
}

FIXTURE_SETUP(race)
{
	int stop[2], out[2];
	sigset_t sigio;

	self->revoker = 0;
	self->stop_revoker = self->revokes = -1;
	self->nr_readers = 0;
	self->stop_readers = false;
	self->reads_revoked = 0;
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &sigio, NULL));

	/* No file of an earlier test is left unreleased after this. */
	ASSERT_REVOKED();
	ASSERT_COUNTER(self->opens0, "opens");
	ASSERT_COUNTER(self->releases0, "releases");
	ASSERT_COUNTER(self->fasync_left0, "fasync_left");
	ASSERT_EQ(self->opens0, self->releases0);

	ASSERT_EQ(0, pipe2(stop, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(out, O_CLOEXEC));
	self->revoker = fork();
	ASSERT_LE(0, self->revoker);
	if (self->revoker == 0) {
		close(stop[1]);
		close(out[0]);
		revoker_main(stop[0], out[1]);
	}
	close(stop[0]);
	close(out[1]);
	self->stop_revoker = stop[1];
	self->revokes = out[0];
}

FIXTURE_TEARDOWN(race)
{
	if (self->revoker > 0) {
		kill(self->revoker, SIGKILL);
		waitpid(self->revoker, NULL, 0);
	}
	close(self->stop_revoker);
	close(self->revokes);
}

static void *reader_main(void *data)
{
	FIXTURE_DATA(race) *self = data;
	char c;
	int fd;

	while (!self->stop_readers) {
		fd = revoke_dev_open(0);
		if (fd < 0)
			break;
		/* Nobody writes: only a revoke ends this read. */
		if (read(fd, &c, 1) < 0 && errno == ENODEV)
			__atomic_add_fetch(&self->reads_revoked, 1,
					   __ATOMIC_RELAXED);
		close(fd);
	}
	return NULL;
}

static sigjmp_buf fault_env;

static void on_fault(int sig)
{
	siglongjmp(fault_env, sig);
}

/* Writes to p; a revoked mapping raises SIGBUS, which is fine here. */
static void touch(volatile char *p)
{
	struct sigaction sa = { .sa_handler = on_fault }, old;

	sigaction(SIGBUS, &sa, &old);
	if (!sigsetjmp(fault_env, 1))
		*p = 'r';
	sigaction(SIGBUS, &old, NULL);
}

TEST_F_TIMEOUT(race, close_racing_revoke_releases_each_file_once, 60)
{
	long page = sysconf(_SC_PAGESIZE);
	long opens, releases, fasync_left, revokes = 0;
	long live = 0, revoked = 0, iterations = 0;
	unsigned int seed = 1;
	long long end;
	char c;

	for (int i = 0; variant->readers && i < READERS; i++) {
		ASSERT_EQ(0, pthread_create(&self->readers[i], NULL,
					    reader_main, self));
		self->nr_readers++;
	}

	end = now_ms() + RACE_MS;
	while (now_ms() < end) {
		int fds[FILES];
		char *map = MAP_FAILED;

		for (int i = 0; i < FILES; i++) {
			fds[i] = revoke_dev_open(O_NONBLOCK);
			ASSERT_LE(0, fds[i])
				TH_LOG("open: %s", strerror(-fds[i]));
			if (variant->async) {
				/* Either works or finds the file revoked. */
				fcntl(fds[i], F_SETOWN, getpid());
				if (fcntl(fds[i], F_SETFL,
					  O_NONBLOCK | O_ASYNC) < 0) {
					ASSERT_EQ(ENODEV, errno);
				}
			}
		}
		if (variant->mapped) {
			map = mmap(NULL, page, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fds[0], 0);
			if (map == MAP_FAILED) {
				ASSERT_EQ(ENODEV, errno);
			} else {
				touch(map);
			}
		}
		for (int i = 0; i < FILES; i++) {
			if (read(fds[i], &c, 1) < 0 && errno == ENODEV)
				revoked++;
			else
				live++;
		}
		/* Close in a varying order. */
		seed = seed * 1103515245 + 12345;
		for (int i = 0; i < FILES; i++)
			ASSERT_EQ(0, close(fds[(i + (seed >> 16)) % FILES]));
		if (map != MAP_FAILED) {
			touch(map);
			ASSERT_EQ(0, munmap(map, page));
		}
		iterations++;
	}

	close(self->stop_revoker);
	self->stop_revoker = -1;
	EXPECT_EQ((ssize_t)sizeof(revokes),
		  read(self->revokes, &revokes, sizeof(revokes)));
	ASSERT_EQ(self->revoker, waitpid(self->revoker, NULL, 0));
	self->revoker = 0;
	if (self->nr_readers) {
		self->stop_readers = true;
		/* Readers still asleep need more revokes to wake. */
		end = now_ms() + REVOKE_WAKE_TIMEOUT_MS;
		while (self->nr_readers) {
			ASSERT_GT(end, now_ms())
				TH_LOG("%d readers still asleep",
				       self->nr_readers);
			ASSERT_REVOKED();
			sleep_ms(50);
			while (self->nr_readers &&
			       !pthread_tryjoin_np(self->readers[self->nr_readers - 1],
						   NULL))
				self->nr_readers--;
		}
		EXPECT_LT(0, self->reads_revoked);
	}

	TH_LOG("%ld iterations, %ld revokes; reads: %ld live, %ld revoked",
	       iterations, revokes, live, revoked);
	/* Both sides won some of the races. */
	EXPECT_LT(0, live);
	EXPECT_LT(0, revoked);

	ASSERT_COUNTER(opens, "opens");
	ASSERT_COUNTER(releases, "releases");
	EXPECT_EQ(opens - self->opens0, releases - self->releases0)
		TH_LOG("%ld opens, %ld releases", opens - self->opens0,
		       releases - self->releases0);
	ASSERT_COUNTER(fasync_left, "fasync_left");
	EXPECT_EQ(self->fasync_left0, fasync_left)
		TH_LOG("generations ended with a fasync entry left");
}

TEST_HARNESS_MAIN
