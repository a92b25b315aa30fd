// SPDX-License-Identifier: GPL-2.0
/*
 * Waits in tty drivers that the hangup's kick does not end: their wait
 * queue is one the kick does not wake, or their condition ignores the
 * hangup. Each sleeps interruptibly inside the tty's ioctl, so the revoke
 * interrupts it; the hangup (TIOCVHANGUP from another session) returns
 * within HANGUP_RETURNS_MS, the tty opens again at once, and the waiter
 * comes back:
 *
 *	VT_WAITACTIVE on a VT that is not the active one	-1/EINTR
 *	VT_WAITEVENT for a console switch that does not come	-1/EINTR
 *	TIOCMIWAIT on a usb-serial port (ftdi_sio)		-1/EIO
 *
 * The VT waits end in vt_event_wait() with nothing done, which vt_ioctl()
 * reports as EINTR; usb-serial's wait returns -ERESTARTSYS, and the
 * restarted call meets the hung-up tty: EIO. Linux 6.12 did not end any
 * of them (they slept on until the VT was switched to or a modem line
 * changed), and neither did its hangup wait for them; the revoke, which
 * waits for every caller to leave, would wait with them for ever.
 *
 * The waiter ignores SIGHUP, as a process that holds on to a terminal
 * does: the hangup itself must not be what ends it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vt.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"
#include "tty-helpers.h"

#define HANGUP_RETURNS_MS	5000
#define REOPEN_MS		5000
#define VT_PATH			"/dev/tty2"	/* tty1 is the active VT */
#define USB_SERIAL_PATH		"/dev/ttyUSB0"	/* QEMU's usb-serial */

struct hangup_call {
	const char *path;
	enum tty_kind kind;
};

static long call_hangup(struct revoke_call *call)
{
	struct hangup_call *h = call->arg;
	int ret = tty_hangup_from_new_session(h->path, h->kind,
					      HANGUP_TIOCVHANGUP);

	errno = -ret;
	return ret ? -1 : 0;
}

static long call_open(struct revoke_call *call)
{
	struct hangup_call *h = call->arg;
	int fd = tty_open(h->path, h->kind);

	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	close(fd);
	return 0;
}

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
	struct hangup_call tty;
	struct revoke_call waiter;
	struct revoke_call hangup;
	struct revoke_call reopen;
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
	.err = EINTR,
};

FIXTURE_VARIANT_ADD(stuck, vt_waitevent)
{
	.path = VT_PATH, .kind = TTY_PTY, .wait = call_waitevent,
	.err = EINTR,
};

FIXTURE_VARIANT_ADD(stuck, usb_serial_tiocmiwait)
{
	.path = USB_SERIAL_PATH, .kind = TTY_SERIAL, .wait = call_miwait,
	.err = EIO,
};

FIXTURE_SETUP(stuck)
{
	memset(&self->waiter, 0, sizeof(self->waiter));
	memset(&self->hangup, 0, sizeof(self->hangup));
	memset(&self->reopen, 0, sizeof(self->reopen));
	signal(SIGHUP, SIG_IGN);
	/* A VT opens as a pty does (TTY_PTY): plainly, O_NOCTTY */
	self->tty.path = variant->path;
	self->tty.kind = variant->kind;
	self->fd = tty_open(variant->path, variant->kind);
	ASSERT_LE(0, self->fd)
		TH_LOG("open %s: %s", variant->path, strerror(-self->fd));
}

FIXTURE_TEARDOWN(stuck)
{
	revoke_call_join(&self->waiter, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&self->hangup, REVOKE_WAKE_TIMEOUT_MS);
	revoke_call_join(&self->reopen, REVOKE_WAKE_TIMEOUT_MS);
	tty_agents_reap();
	close(self->fd);
}

TEST_F(stuck, hangup_returns_and_the_waiter_ends)
{
	ASSERT_EQ(0, revoke_call_start(&self->waiter, variant->wait,
				       self->fd, NULL));
	ASSERT_EQ(0, revoke_call_wait_asleep(&self->waiter, SYS_ioctl));
	ASSERT_EQ(0, revoke_call_start(&self->hangup, call_hangup, -1,
				       &self->tty));
	ASSERT_EQ(0, revoke_call_join(&self->hangup, HANGUP_RETURNS_MS))
		TH_LOG("TIOCVHANGUP of %s waits on the waiter", variant->path);
	EXPECT_CALL_RET(&self->hangup, 0, "TIOCVHANGUP");

	ASSERT_EQ(0, revoke_call_start(&self->reopen, call_open, -1,
				       &self->tty));
	ASSERT_EQ(0, revoke_call_join(&self->reopen, REOPEN_MS))
		TH_LOG("%s does not open again", variant->path);
	EXPECT_CALL_RET(&self->reopen, 0, "reopen");

	ASSERT_CALL_RETURNS(&self->waiter);
	EXPECT_CALL_ERRNO(&self->waiter, variant->err, "the waiter");
}

TEST_HARNESS_MAIN
