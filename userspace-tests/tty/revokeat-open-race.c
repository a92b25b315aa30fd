// SPDX-License-Identifier: GPL-2.0
/*
 * open() racing revokeat() on a pty slave. A thread opens the slave over
 * and over while another process revokes it by path. Every open must
 * succeed, and end on one side of the revoke: a file whose open returned
 * before revokeat() was called is revoked (hung up); a file whose open
 * began after revokeat() returned is live; one opened in between is
 * either, and if live it works. No open gets a live file of the
 * generation that the revoke cut off.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revokeat.h"
#include "thread-state.h"
#include "tty-helpers.h"

#define MAX_OPENS	900	/* under the limit of 1024 open files */
#define ROUNDS		20

struct opened {
	int fd, err;
	struct timespec before, after;	/* around open() */
};

struct opener {
	const char *path;
	atomic_bool stop;
	int count;
	struct opened files[MAX_OPENS];
};

static void *open_loop(void *arg)
{
	struct opener *o = arg;
	struct opened *f;

	while (!atomic_load(&o->stop) && o->count < MAX_OPENS) {
		f = &o->files[o->count++];
		clock_gettime(CLOCK_MONOTONIC, &f->before);
		f->fd = open(o->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		f->err = f->fd < 0 ? errno : 0;
		clock_gettime(CLOCK_MONOTONIC, &f->after);
		/* some hundreds of files a round, not thousands */
		usleep(100);
	}
	return NULL;
}

static int ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/* 1 if fd reads end of file (hung up), 0 if it would block (live). */
static int hung_up(int fd)
{
	char c;

	if (read(fd, &c, 1) == 0)
		return 1;
	return errno == EAGAIN ? 0 : -errno;
}

static struct opener opener;

TEST(opens_land_on_one_side_of_the_revoke)
{
	int round, i, state, early = 0, late = 0, between = 0;
	struct timespec start, end;
	struct tty_dev dev;
	pthread_t thread;
	char c;

	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(0, tty_dev_init(&dev, TTY_PTY));
		memset(&opener, 0, sizeof(opener));
		opener.path = dev.path;
		ASSERT_EQ(0, pthread_create(&thread, NULL, open_loop, &opener));
		sleep_ms(20);
		clock_gettime(CLOCK_MONOTONIC, &start);
		ASSERT_EQ(0, sys_revokeat(AT_FDCWD, dev.path, 0))
			TH_LOG("revokeat %s: %s", dev.path, strerror(errno));
		clock_gettime(CLOCK_MONOTONIC, &end);
		sleep_ms(20);
		atomic_store(&opener.stop, true);
		pthread_join(thread, NULL);

		for (i = 0; i < opener.count; i++) {
			struct opened *f = &opener.files[i];

			ASSERT_EQ(0, f->err)
				TH_LOG("open %d of round %d: %s", i, round,
				       strerror(f->err));
			state = hung_up(f->fd);
			ASSERT_LE(0, state) TH_LOG("read: %s", strerror(-state));
			if (ts_cmp(&f->after, &start) < 0) {
				early++;
				EXPECT_EQ(1, state)
					TH_LOG("round %d: a file opened before the revoke is live",
					       round);
			} else if (ts_cmp(&f->before, &end) > 0) {
				late++;
				EXPECT_EQ(0, state)
					TH_LOG("round %d: a file opened after the revoke is hung up",
					       round);
			} else {
				between++;
			}
			if (state == 0) {
				ASSERT_EQ(1, write(f->fd, "r", 1));
				ASSERT_EQ(1, tty_read_for(dev.master, &c, 1, 5000));
				EXPECT_EQ('r', c);
			}
			close(f->fd);
		}
		tty_dev_fini(&dev);
	}
	TH_LOG("%d opens before the revoke, %d after, %d during it",
	       early, late, between);
	EXPECT_LT(0, early);
	EXPECT_LT(0, late);
}

TEST_HARNESS_MAIN
