// SPDX-License-Identifier: GPL-2.0
/*
 * TIOCCONS on a pty slave redirects what is written to /dev/console to
 * that pty. A hangup of the pty drops the redirect: /dev/console writes go
 * to the real console again, and a /dev/console writer asleep on the full
 * pty is woken and returns what it wrote, or -1/EIO if nothing.
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
#include "thread-state.h"
#include "tty-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define BIG_WRITE (256 * 1024)	/* more than a pty buffers */

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

TEST_HARNESS_MAIN
