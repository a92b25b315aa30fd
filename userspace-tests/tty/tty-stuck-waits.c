// SPDX-License-Identifier: GPL-2.0
/*
 * Waits inside a tty's ioctl that nothing but a hangup ends. In each, the
 * hangup (TIOCVHANGUP from another session) returns within
 * HANGUP_RETURNS_MS, the tty opens again at once, and the waiter comes
 * back with what the table says. The waiter ignores SIGHUP, as a process
 * that holds on to a terminal does: the hangup itself must end it.
 *
 * Fixture "stuck": waits in tty drivers that the hangup's kick does not
 * wake, their wait queue not being the tty's. Each sleeps interruptibly,
 * so the revoke interrupts it:
 *
 *	VT_WAITACTIVE on a VT that is not the active one	-1/EIO
 *	VT_WAITEVENT for a console switch that does not come	-1/EIO
 *	TIOCMIWAIT on a usb-serial port (ftdi_sio)		-1/EIO
 *
 * The VT waits see the hangup in their condition (revoke_pending()) once
 * the interruption wakes them, and answer it as a hung-up tty's ioctl
 * does, EIO, not EINTR; usb-serial's wait returns -ERESTARTSYS, and the
 * restarted call meets the hung-up tty: EIO. Linux 6.12 did not end any
 * of them (they slept on until the VT was switched to or a modem line
 * changed), and neither did its hangup wait for them; the revoke, which
 * waits for every caller to leave, would wait with them for ever.
 *
 * Fixture "drain": a drain that output which can never leave keeps
 * waiting, ended as Linux 6.12 ends it. The serial port (an 8250) talks to
 * itself in loopback with RTS cleared, so CTS reads low, and CRTSCTS holds
 * the output back:
 *
 *	tcdrain(), TCSBRK 1			0 (the hangup's flush drains it)
 *	tcsetattr(TCSADRAIN), TCSETSW		0
 *	tcsendbreak(), TCSBRK 0			-1/EIO (send_break() ends the
 *						break at the hangup)
 *
 * Fixture "fault": a call on a pty that copies from a page that a
 * userfaultfd never serves sleeps in the page fault, inside the method.
 * The revoke interrupts the fault, which gives up: -1/EFAULT.
 *
 *	TIOCSTI, TIOCVHANGUP	get_user() of its byte, before it takes
 *				the line discipline
 *	write(), TIOCVHANGUP	the copy into the tty's write buffer, with
 *	write(), vhangup()	the line discipline held, which the hangup
 *				takes down, and so waits for
 *
 * Linux 6.12's hangup did not wait for the TIOCSTI, which slept on until
 * the page came. It waited for the write(), for as long as the page did
 * not come: it takes the line discipline down before it is done. The
 * revoke begins before that, so the interrupted fault lets the writer go.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vt.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"
#include "tty-helpers.h"
#include "uffd-helpers.h"

#define HANGUP_RETURNS_MS	5000
#define REOPEN_MS		5000
#define VT_PATH			"/dev/tty2"	/* tty1 is the active VT */
#define USB_SERIAL_PATH		"/dev/ttyUSB0"	/* QEMU's usb-serial */
/* <asm-generic/termios.h>, which clashes with glibc's <termios.h> */
#ifndef TIOCM_LOOP
#define TIOCM_LOOP		0x8000
#endif
/* More than the UART's FIFO, less than the port's buffer. */
#define STUCK_BYTES		256
/* What a faulting write() copies, from the start of the page. */
#define FAULT_BYTES		16

/* The tty the hangup and the reopen act on. */
struct tty_target {
	const char *path;
	enum tty_kind kind;
	enum tty_hangup how;
};

/* A waiter, the hangup that must end it, and the reopen after. */
struct stuck_calls {
	struct tty_target tty;
	struct revoke_call waiter;
	struct revoke_call hangup;
	struct revoke_call reopen;
};

static long call_hangup(struct revoke_call *call)
{
	struct tty_target *t = call->arg;
	int ret = tty_hangup_from_new_session(t->path, t->kind, t->how);

	errno = -ret;
	return ret ? -1 : 0;
}

static long call_open(struct revoke_call *call)
{
	struct tty_target *t = call->arg;
	int fd = tty_open(t->path, t->kind);

	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	close(fd);
	return 0;
}

static void stuck_calls_init(struct stuck_calls *c, const char *path,
			     enum tty_kind kind)
{
	memset(c, 0, sizeof(*c));
	c->tty.path = path;
	c->tty.kind = kind;
	c->tty.how = HANGUP_TIOCVHANGUP;
	signal(SIGHUP, SIG_IGN);
}

static void stuck_calls_fini(struct stuck_calls *c)
{
	revoke_call_join(&c->waiter, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&c->hangup, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&c->reopen, REVOKE_WAKE_TIMEOUT_MS);
	tty_agents_reap();
}

/*
 * Puts WAIT(FD, ARG) to sleep in system call NR, hangs the tty up and
 * opens it again, each bounded, and leaves the waiter returned, for the
 * caller to judge.
 */
#define ASSERT_HANGUP_ENDS(c, wait, fd, arg, nr, what)			\
	do {								\
		ASSERT_EQ(0, revoke_call_start(&(c)->waiter, wait, fd,	\
					       arg));			\
		ASSERT_EQ(0, revoke_call_wait_asleep(&(c)->waiter, nr));	\
		ASSERT_EQ(0, revoke_call_start(&(c)->hangup,		\
					       call_hangup, -1,		\
					       &(c)->tty));		\
		ASSERT_EQ(0, revoke_call_join(&(c)->hangup,		\
					      HANGUP_RETURNS_MS))	\
			TH_LOG("the hangup of %s waits on %s",		\
			       (c)->tty.path, what);			\
		EXPECT_CALL_RET(&(c)->hangup, 0, "the hangup");		\
		ASSERT_EQ(0, revoke_call_start(&(c)->reopen, call_open,	\
					       -1, &(c)->tty));		\
		ASSERT_EQ(0, revoke_call_join(&(c)->reopen, REOPEN_MS))	\
			TH_LOG("%s does not open again", (c)->tty.path); \
		EXPECT_CALL_RET(&(c)->reopen, 0, "reopen");		\
		ASSERT_CALL_RETURNS(&(c)->waiter);			\
	} while (0)

static long call_waitactive(struct revoke_call *call)
{
	return ioctl(call->fd, VT_WAITACTIVE, 2);
}

static long call_waitevent(struct revoke_call *call)
{
	struct vt_event ev = { .event = VT_EVENT_SWITCH };

	return ioctl(call->fd, VT_WAITEVENT, &ev);
}

static long call_miwait(struct revoke_call *call)
{
	return ioctl(call->fd, TIOCMIWAIT,
		     TIOCM_CTS | TIOCM_DSR | TIOCM_CD | TIOCM_RI);
}

FIXTURE(stuck)
{
	int fd;
	struct stuck_calls c;
};

FIXTURE_VARIANT(stuck)
{
	const char *path;
	enum tty_kind kind;
	revoke_call_fn wait;
	int err;		/* what the waiter ends with */
};

FIXTURE_VARIANT_ADD(stuck, vt_waitactive)
{
	.path = VT_PATH, .kind = TTY_PTY, .wait = call_waitactive,
	.err = EIO,
};

FIXTURE_VARIANT_ADD(stuck, vt_waitevent)
{
	.path = VT_PATH, .kind = TTY_PTY, .wait = call_waitevent,
	.err = EIO,
};

FIXTURE_VARIANT_ADD(stuck, usb_serial_tiocmiwait)
{
	.path = USB_SERIAL_PATH, .kind = TTY_SERIAL, .wait = call_miwait,
	.err = EIO,
};

FIXTURE_SETUP(stuck)
{
	stuck_calls_init(&self->c, variant->path, variant->kind);
	/* A VT opens as a pty does (TTY_PTY): plainly, O_NOCTTY */
	self->fd = tty_open(variant->path, variant->kind);
	ASSERT_LE(0, self->fd)
		TH_LOG("open %s: %s", variant->path, strerror(-self->fd));
}

FIXTURE_TEARDOWN(stuck)
{
	stuck_calls_fini(&self->c);
	close(self->fd);
}

TEST_F(stuck, hangup_returns_and_the_waiter_ends)
{
	ASSERT_HANGUP_ENDS(&self->c, variant->wait, self->fd, NULL, SYS_ioctl,
			   "the waiter");
	EXPECT_CALL_ERRNO(&self->c.waiter, variant->err, "the waiter");
}

static long call_tcdrain(struct revoke_call *call)
{
	return tcdrain(call->fd);
}

static long call_tcsetattr_drain(struct revoke_call *call)
{
	struct termios tio;

	if (tcgetattr(call->fd, &tio))
		return -1;
	return tcsetattr(call->fd, TCSADRAIN, &tio);
}

static long call_tcsendbreak(struct revoke_call *call)
{
	return tcsendbreak(call->fd, 0);
}

/* Loopback with RTS low, CRTSCTS on: or back to a plain port. */
static int hold_output(int fd, bool hold)
{
	int lines = TIOCM_LOOP, rts = TIOCM_RTS;
	struct termios tio;

	if (tcgetattr(fd, &tio))
		return -errno;
	if (hold)
		tio.c_cflag |= CRTSCTS;
	else
		tio.c_cflag &= ~CRTSCTS;
	if (ioctl(fd, hold ? TIOCMBIS : TIOCMBIC, &lines) ||
	    ioctl(fd, hold ? TIOCMBIC : TIOCMBIS, &rts) ||
	    tcsetattr(fd, TCSANOW, &tio))
		return -errno;
	if (!hold && tcflush(fd, TCIOFLUSH))
		return -errno;
	return 0;
}

FIXTURE(drain)
{
	struct tty_dev dev;
	int fd;
	struct stuck_calls c;
};

FIXTURE_VARIANT(drain)
{
	revoke_call_fn wait;
	const char *name;
	long ret;		/* what the waiter returns */
	int err;		/* and its errno, when that is -1 */
};

FIXTURE_VARIANT_ADD(drain, tcdrain)
{
	.wait = call_tcdrain, .name = "tcdrain()", .ret = 0,
};

FIXTURE_VARIANT_ADD(drain, tcsetattr_tcsadrain)
{
	.wait = call_tcsetattr_drain, .name = "tcsetattr(TCSADRAIN)",
	.ret = 0,
};

FIXTURE_VARIANT_ADD(drain, tcsendbreak)
{
	.wait = call_tcsendbreak, .name = "tcsendbreak()", .ret = -1,
	.err = EIO,
};

FIXTURE_SETUP(drain)
{
	char bytes[STUCK_BYTES];
	int queued = 0, ret;

	/* dev.path is filled in by TTY_DEV_SETUP() */
	stuck_calls_init(&self->c, self->dev.path, TTY_SERIAL);
	TTY_DEV_SETUP(&self->dev, TTY_SERIAL, self->fd);
	ret = hold_output(self->fd, true);
	ASSERT_EQ(0, ret) TH_LOG("hold %s's output: %s", self->dev.path,
				 strerror(-ret));
	memset(bytes, 'd', sizeof(bytes));
	ASSERT_EQ((ssize_t)sizeof(bytes), write(self->fd, bytes, sizeof(bytes)));
	/* The output is held back: the drain below can only sleep. */
	ASSERT_EQ(0, ioctl(self->fd, TIOCOUTQ, &queued));
	ASSERT_LT(0, queued) TH_LOG("%s sent its output despite CTS low",
				    self->dev.path);
}

FIXTURE_TEARDOWN(drain)
{
	int fd;

	stuck_calls_fini(&self->c);
	close(self->fd);
	/* The next test gets a port that sends. */
	fd = tty_open(self->dev.path, TTY_SERIAL);
	if (fd >= 0) {
		hold_output(fd, false);
		close(fd);
	}
	tty_dev_fini(&self->dev);
}

TEST_F(drain, hangup_returns_and_the_drain_ends)
{
	ASSERT_HANGUP_ENDS(&self->c, variant->wait, self->fd, NULL, SYS_ioctl,
			   variant->name);
	if (variant->ret == -1)
		EXPECT_CALL_ERRNO(&self->c.waiter, variant->err,
				  variant->name);
	else
		EXPECT_CALL_RET(&self->c.waiter, variant->ret, variant->name);
}

static long call_tiocsti_from(struct revoke_call *call)
{
	return ioctl(call->fd, TIOCSTI, call->arg);
}

static long call_write_from(struct revoke_call *call)
{
	return write(call->fd, call->arg, FAULT_BYTES);
}

FIXTURE(fault)
{
	struct tty_dev dev;
	int fd;
	struct uffd_page page;
	struct stuck_calls c;
};

FIXTURE_VARIANT(fault)
{
	revoke_call_fn call;
	int nr;			/* the system call it sleeps in */
	enum tty_hangup how;
	const char *what;
};

FIXTURE_VARIANT_ADD(fault, tiocsti_tiocvhangup)
{
	.call = call_tiocsti_from, .nr = SYS_ioctl,
	.how = HANGUP_TIOCVHANGUP, .what = "TIOCSTI",
};

FIXTURE_VARIANT_ADD(fault, write_tiocvhangup)
{
	.call = call_write_from, .nr = SYS_write,
	.how = HANGUP_TIOCVHANGUP, .what = "write()",
};

FIXTURE_VARIANT_ADD(fault, write_vhangup)
{
	.call = call_write_from, .nr = SYS_write,
	.how = HANGUP_VHANGUP, .what = "write()",
};

FIXTURE_SETUP(fault)
{
	int ret;

	stuck_calls_init(&self->c, self->dev.path, TTY_PTY);
	self->c.tty.how = variant->how;
	ret = uffd_page_init(&self->page);
	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->fd);
}

FIXTURE_TEARDOWN(fault)
{
	/* A call the hangup did not end goes on now. */
	uffd_page_release(&self->page);
	stuck_calls_fini(&self->c);
	close(self->fd);
	tty_dev_fini(&self->dev);
	uffd_page_fini(&self->page);
}

TEST_F(fault, hangup_ends_a_call_faulting_in_its_copy)
{
	ASSERT_HANGUP_ENDS(&self->c, variant->call, self->fd,
			   self->page.addr, variant->nr,
			   "a call faulting on a page never served");
	EXPECT_CALL_ERRNO(&self->c.waiter, EFAULT, variant->what);
}

TEST_HARNESS_MAIN
