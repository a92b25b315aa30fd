// SPDX-License-Identifier: GPL-2.0
/*
 * TIOCCONS on a pty slave redirects what is written to /dev/console to
 * that pty. A hangup of the pty drops the redirect: /dev/console writes go
 * to the real console again, and a /dev/console writer asleep on the full
 * pty is woken and returns what it wrote, or -1/EIO if nothing.
 *
 * Fixture "race": TIOCCONS on a slave file racing a TIOCVHANGUP of the
 * slave, for RACE_SECONDS. The hangup drops the redirects to its tty,
 * then marks its files hung up, and its revoke releases them: a TIOCCONS
 * that passed the ioctl's check of the mark before it was set must not
 * leave a redirect to a released file behind (every /dev/console write
 * would fail with EIO, and the next hangup of any tty would look at the
 * released file). TIOCCONS returns
 *
 *	0		it came first; the hangup dropped its redirect
 *	-1/EIO		the hangup came first: what a hung up tty answers
 *	-1/ENOTTY	the hangup marked the file between the ioctl's check
 *			and the redirect: tioccons() sees it, as 6.12's saw
 *			the file's swapped f_op, which is no tty's any more
 *
 * and after each round a /dev/console write reaches the console. The
 * test wants both of the first two outcomes seen, so that the calls did
 * overlap; the third needs the narrow window and is only counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "settings.h"
#include "thread-state.h"
#include "tty-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define BIG_WRITE (256 * 1024)	/* more than a pty buffers */
#define RACE_SECONDS suite_setting("RACE_SECONDS", 5)

FIXTURE(tioccons)
{
	struct tty_dev dev;
	int slave;
	int console;
};

FIXTURE_SETUP(tioccons)
{
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->slave);
	ASSERT_EQ(0, tty_make_raw(self->slave));
	self->console = open("/dev/console", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, self->console);
	ASSERT_EQ(0, ioctl(self->slave, TIOCCONS)) TH_LOG("TIOCCONS: %s",
							 strerror(errno));
}

FIXTURE_TEARDOWN(tioccons)
{
	/* TIOCCONS on a console file ends a redirect still in force. */
	ioctl(self->console, TIOCCONS);
	close(self->console);
	close(self->slave);
	tty_dev_fini(&self->dev);
}

static void hang_up_slave(struct __test_metadata *_metadata,
			  FIXTURE_DATA(tioccons) *self)
{
	int ret = tty_hangup_from_new_session(self->dev.path, TTY_PTY,
					      HANGUP_VHANGUP);

	ASSERT_EQ(0, ret) TH_LOG("vhangup: %s", strerror(-ret));
}

TEST_F(tioccons, hangup_of_the_target_ends_the_redirect)
{
	static const char before[] = "tioccons: redirected\n";
	static const char after[] = "tioccons: on the console again\n";
	char got[256];

	ASSERT_EQ((ssize_t)strlen(before),
		  write(self->console, before, strlen(before)));
	ASSERT_EQ((ssize_t)strlen(before),
		  tty_read_for(self->dev.master, got, sizeof(got), 500));
	ASSERT_EQ(0, memcmp(got, before, strlen(before)));

	hang_up_slave(_metadata, self);
	EXPECT_EQ((ssize_t)strlen(after),
		  write(self->console, after, strlen(after)));
	EXPECT_GE(0, tty_read_for(self->dev.master, got, sizeof(got), 500))
		TH_LOG("the hung up pty still gets the console's output");
}

struct console_writer {
	int fd;
	pid_t tid;
	long ret;
	int err;
	bool done;
};

static void *console_writer_main(void *arg)
{
	static char buf[BIG_WRITE];
	struct console_writer *w = arg;

	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	memset(buf, 'c', sizeof(buf));
	w->ret = write(w->fd, buf, sizeof(buf));
	w->err = w->ret < 0 ? errno : 0;
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

TEST_F(tioccons, console_writer_asleep_on_the_target_is_woken)
{
	struct console_writer w = { .fd = self->console };
	pthread_t thread;
	long long deadline;
	pid_t tid;

	ASSERT_EQ(0, pthread_create(&thread, NULL, console_writer_main, &w));
	while (!(tid = __atomic_load_n(&w.tid, __ATOMIC_ACQUIRE)))
		sleep_ms(10);
	ASSERT_EQ(0, wait_asleep_in(tid, SYS_write, ANY_ARG, WAKE_TIMEOUT_MS))
		TH_LOG("the console writer never slept on the full pty");

	hang_up_slave(_metadata, self);
	deadline = now_ms() + WAKE_TIMEOUT_MS;
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE) && now_ms() < deadline)
		sleep_ms(20);
	ASSERT_TRUE(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		TH_LOG("the console writer still sleeps after the hangup");
	pthread_join(thread, NULL);
	EXPECT_TRUE((w.ret > 0 && w.ret < BIG_WRITE) ||
		    (w.ret == -1 && w.err == EIO))
		TH_LOG("write: %ld (%s)", w.ret, strerror(w.err));
}

/* Two calls let go at once: TIOCCONS on one file, TIOCVHANGUP on another. */
struct race_call {
	int fd;
	unsigned long req;
	const int *go;
	int ret;
	int err;
};

static void *race_call_main(void *arg)
{
	struct race_call *c = arg;

	while (!__atomic_load_n(c->go, __ATOMIC_ACQUIRE))
		;
	c->ret = ioctl(c->fd, c->req);
	c->err = c->ret ? errno : 0;
	return NULL;
}

FIXTURE(race)
{
	struct tty_dev dev;
	int slave;
	int console;
};

FIXTURE_SETUP(race)
{
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->slave);
	self->console = open("/dev/console", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, self->console);
}

FIXTURE_TEARDOWN(race)
{
	ioctl(self->console, TIOCCONS);
	close(self->console);
	close(self->slave);
	tty_dev_fini(&self->dev);
}

TEST_F_TIMEOUT(race, tioccons_racing_a_hangup_leaves_no_redirect_behind, 600)
{
	long long end = now_ms() + RACE_SECONDS * 1000LL;
	unsigned long first = 0, hung_up = 0, marked = 0;
	pthread_t cons_thread, hup_thread;
	struct race_call cons, hup;
	int go, fd, ret;

	while (now_ms() < end) {
		fd = tty_open(self->dev.path, TTY_PTY);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		go = 0;
		cons = (struct race_call){ .fd = fd, .req = TIOCCONS,
					   .go = &go };
		hup = (struct race_call){ .fd = self->slave,
					  .req = TIOCVHANGUP, .go = &go };
		ASSERT_EQ(0, pthread_create(&cons_thread, NULL,
					    race_call_main, &cons));
		ASSERT_EQ(0, pthread_create(&hup_thread, NULL,
					    race_call_main, &hup));
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		pthread_join(cons_thread, NULL);
		pthread_join(hup_thread, NULL);
		ASSERT_EQ(0, hup.ret) TH_LOG("TIOCVHANGUP: %s",
					     strerror(hup.err));
		if (!cons.ret)
			first++;
		else if (cons.err == EIO)
			hung_up++;
		else if (cons.err == ENOTTY)
			marked++;
		else
			ASSERT_EQ(0, cons.ret) TH_LOG("TIOCCONS: %s",
						      strerror(cons.err));
		/* Goes to the console, not to a released file */
		ret = write(self->console, "\r", 1);
		ASSERT_EQ(1, ret) TH_LOG("/dev/console write: %s",
					 strerror(errno));
		close(fd);
		close(self->slave);
		self->slave = tty_open(self->dev.path, TTY_PTY);
		ASSERT_LE(0, self->slave)
			TH_LOG("reopen: %s", strerror(-self->slave));
	}
	TH_LOG("TIOCCONS first %lu, after the hangup %lu, in between %lu",
	       first, hung_up, marked);
	EXPECT_LT(0UL, first) TH_LOG("TIOCCONS never came first");
	EXPECT_LT(0UL, hung_up) TH_LOG("the hangup never came first");
	/* Drops the redirects to its tty: none may be left to look at */
	ASSERT_EQ(0, ioctl(self->slave, TIOCVHANGUP));
	EXPECT_EQ(1, write(self->console, "\r", 1));
}

TEST_HARNESS_MAIN
