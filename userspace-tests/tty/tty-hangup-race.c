// SPDX-License-Identifier: GPL-2.0
/*
 * Hangups racing everything else one can do to a tty, for RACE_SECONDS
 * (default 60): threads that open and close it, that read, poll and
 * write, that splice to and from it, that run ioctls (termios, queue
 * flushes) and that switch its line discipline between N_TTY and N_HDLC,
 * while another hangs it up with TIOCVHANGUP and now and then vhangup().
 * A call may fail in any way a hung up tty fails; what must not happen is
 * a thread that never comes back, or a kernel splat (the runner watches
 * the log for those).
 *
 * Then, for NAMED_RACE_SECONDS each (default 10), the races of known reports against
 * the hangup on their own, so that a failure names the report's class:
 *
 *	splice_vs_hangup	splice in and out while the tty is hung up
 *				(syzbot: __fput() against __tty_hangup())
 *	tcflush_vs_hangup_across_ldiscs
 *				queue flushes while the line discipline
 *				changes and the tty is hung up
 *	tiocsetd_vs_hangup	TIOCSETD against the hangup's ldisc reset
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "settings.h"
#include "thread-state.h"
#include "tty-helpers.h"

#define N_HDLC_LDISC 13		/* N_HDLC, <linux/tty.h> */
#define JOIN_TIMEOUT_MS 10000
/* The suite's settings: make check runs them shorter. */
#define RACE_SECONDS suite_setting("RACE_SECONDS", 60)
#define NAMED_RACE_SECONDS suite_setting("NAMED_RACE_SECONDS", 10)

enum racer_role { ROLE_OPENER, ROLE_READER, ROLE_WRITER, ROLE_SPLICER,
		  ROLE_IOCTL, ROLE_LDISC, ROLE_HANGER, NR_ROLES };

static const char *const role_names[NR_ROLES] = {
	"opener", "reader", "writer", "splicer", "ioctl", "ldisc", "hanger",
};

#define ROLE(r)		(1U << (r))
#define ALL_ROLES	(ROLE(NR_ROLES) - 1)

struct racer {
	enum racer_role role;
	const struct tty_dev *dev;
	const bool *stop;
	pthread_t thread;
	int pipe[2];		/* the splicer's */
	long ops;
	bool done;
};

FIXTURE(race)
{
	struct tty_dev dev;
	int fd;
	bool stop;
	struct racer racers[NR_ROLES];
};

TTY_VARIANTS(race);

FIXTURE_SETUP(race)
{
	self->stop = false;
	TTY_DEV_SETUP(&self->dev, variant->kind, self->fd);
	ASSERT_EQ(0, tty_make_raw(self->fd));
}

FIXTURE_TEARDOWN(race)
{
	tty_agents_reap();
	close(self->fd);
	tty_dev_fini(&self->dev);
}


/* 1 once fd is ready for events, 0 if not yet, -1 once it is hung up. */
static int ready_for(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	if (poll(&pfd, 1, 5) != 1)
		return 0;
	return pfd.revents & POLLHUP ? -1 : 1;
}

/* One step of a role on fd; returns false once fd is hung up. */
static bool racer_step(struct racer *r, int fd)
{
	struct termios t;
	int ldisc, queued, ready;
	char buf[64];

	switch (r->role) {
	case ROLE_READER:
		ready = ready_for(fd, POLLIN);
		if (ready <= 0)
			return ready == 0;
		return read(fd, buf, sizeof(buf)) >= 0 || errno == EAGAIN;
	case ROLE_WRITER:
		ready = ready_for(fd, POLLOUT);
		if (ready <= 0)
			return ready == 0;
		memset(buf, 'r', sizeof(buf));
		return write(fd, buf, sizeof(buf)) >= 0 || errno == EAGAIN;
	case ROLE_SPLICER:
		/* into a pipe and back: splice_read, then splice_write */
		if (splice(fd, NULL, r->pipe[1], NULL, sizeof(buf),
			   SPLICE_F_NONBLOCK) == 0)
			return false;	/* a hung up tty reads end of file */
		if (splice(r->pipe[0], NULL, fd, NULL, sizeof(buf),
			   SPLICE_F_NONBLOCK) < 0 && errno == EIO)
			return false;
		return true;
	case ROLE_IOCTL:
		if (tcgetattr(fd, &t) || tcsetattr(fd, TCSANOW, &t))
			return false;
		if (ioctl(fd, TIOCOUTQ, &queued))
			return false;
		return tcflush(fd, TCIOFLUSH) == 0;
	case ROLE_LDISC:
		if (ioctl(fd, TIOCGETD, &ldisc))
			return false;
		ldisc = ldisc == N_TTY ? N_HDLC_LDISC : N_TTY;
		return ioctl(fd, TIOCSETD, &ldisc) == 0 || errno == EBUSY;
	case ROLE_HANGER:
		if (r->ops % 16 == 15)
			return tty_hangup_from_new_session(r->dev->path,
							   r->dev->kind,
							   HANGUP_VHANGUP) == 0;
		ioctl(fd, TIOCVHANGUP);
		return false;
	case ROLE_OPENER:
	case NR_ROLES:
		break;
	}
	return false;
}

static void *racer_main(void *arg)
{
	struct racer *r = arg;
	int fd = -1;

	while (!__atomic_load_n(r->stop, __ATOMIC_ACQUIRE)) {
		if (fd < 0) {
			fd = tty_open(r->dev->path, r->dev->kind);
			if (fd < 0)
				continue;	/* open failed: try again */
			/* I/O must not block once the hangups have stopped. */
			if (r->role == ROLE_READER || r->role == ROLE_WRITER ||
			    r->role == ROLE_SPLICER)
				fcntl(fd, F_SETFL, O_NONBLOCK);
		}
		if (r->role == ROLE_OPENER || !racer_step(r, fd)) {
			close(fd);
			fd = -1;
		}
		r->ops++;
	}
	if (fd >= 0)
		close(fd);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Runs the roles in mask for seconds; each must come back and have run. */
static void run_race(struct __test_metadata *_metadata,
		     FIXTURE_DATA(race) *self, const FIXTURE_VARIANT(race) *variant,
		     unsigned int roles, int seconds)
{
	long long deadline;
	struct termios t;
	int fd;

	for (int i = 0; i < NR_ROLES; i++) {
		struct racer *r = &self->racers[i];

		if (!(roles & ROLE(i)))
			continue;
		*r = (struct racer){ .role = i, .dev = &self->dev,
				     .stop = &self->stop };
		ASSERT_EQ(0, pipe2(r->pipe, O_NONBLOCK | O_CLOEXEC));
		ASSERT_EQ(0, pthread_create(&r->thread, NULL, racer_main, r));
		ASSERT_EQ(0, pthread_detach(r->thread));
	}
	sleep(seconds);
	__atomic_store_n(&self->stop, true, __ATOMIC_RELEASE);

	deadline = now_ms() + JOIN_TIMEOUT_MS;
	for (int i = 0; i < NR_ROLES; i++) {
		struct racer *r = &self->racers[i];

		if (!(roles & ROLE(i)))
			continue;
		while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE) &&
		       now_ms() < deadline)
			sleep_ms(20);
		ASSERT_TRUE(__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
			TH_LOG("the %s is stuck", role_names[r->role]);
		EXPECT_LT(0, r->ops) TH_LOG("the %s did nothing",
					    role_names[r->role]);
		TH_LOG("%s: %ld rounds", role_names[r->role], r->ops);
		close(r->pipe[0]);
		close(r->pipe[1]);
	}

	fd = tty_open(self->dev.path, variant->kind);
	ASSERT_LE(0, fd) TH_LOG("open after the race: %s", strerror(-fd));
	EXPECT_EQ(0, tcgetattr(fd, &t));
	close(fd);
}

TEST_F_TIMEOUT(race, hangups_race_open_close_io_ioctl_and_ldisc, 600)
{
	run_race(_metadata, self, variant, ALL_ROLES, RACE_SECONDS);
}

TEST_F_TIMEOUT(race, splice_vs_hangup, 120)
{
	run_race(_metadata, self, variant,
		 ROLE(ROLE_OPENER) | ROLE(ROLE_SPLICER) | ROLE(ROLE_HANGER),
		 NAMED_RACE_SECONDS);
}

TEST_F_TIMEOUT(race, tcflush_vs_hangup_across_ldiscs, 120)
{
	run_race(_metadata, self, variant,
		 ROLE(ROLE_IOCTL) | ROLE(ROLE_LDISC) | ROLE(ROLE_HANGER),
		 NAMED_RACE_SECONDS);
}

TEST_F_TIMEOUT(race, tiocsetd_vs_hangup, 120)
{
	run_race(_metadata, self, variant,
		 ROLE(ROLE_LDISC) | ROLE(ROLE_HANGER),
		 NAMED_RACE_SECONDS);
}

TEST_HARNESS_MAIN
