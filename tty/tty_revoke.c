// SPDX-License-Identifier: GPL-2.0
/*
 * Hanging up a tty through the revoke core.
 *
 * __tty_hangup() marks the files of a tty hung up, cuts them off
 * (revoke_begin()) and takes the line down under tty_lock, as it always
 * has; then, with no lock of the tty held, it finishes the revoke without
 * waiting for anyone: threads still inside their methods are kicked out,
 * and tty_release() runs on each file, as the later close() used to, once
 * the last of them has left. The tty goes back into service for the next
 * open at once, or is released if nothing holds it open any more; a file
 * whose release is still to come holds it as an open file does.
 *
 * Console files are never made revokable: see tty_console.c.
 */

#include <linux/revoke.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "tty.h"

/*
 * Wake every sleeper that can sit inside a method of a tty file: line
 * discipline readers and writers and pollers, tcdrain(), break and modem
 * status waits. Each of them then sees its file hung up and leaves.
 */
static void tty_revoke_kick(struct revokable *r)
{
	struct tty_struct *tty = container_of(r, struct tty_struct, revokable);

	wake_up_interruptible_all(&tty->read_wait);
	wake_up_interruptible_all(&tty->write_wait);
	wake_up_interruptible_all(&tty->break_wait);
	if (tty->port)
		wake_up_interruptible_all(&tty->port->delta_msr_wait);
}

static void tty_hangup_revoke_work(struct work_struct *work);

/**
 * tty_revoke_init - prepare a new tty for revoking its files
 * @tty: the tty, with its driver set
 *
 * The release of a pty master hangs up its slave, so masters, slaves and
 * other ttys are three lockdep classes.
 *
 * Return: 0, or -ENOMEM.
 */
int tty_revoke_init(struct tty_struct *tty)
{
	INIT_WORK(&tty->revoke_work, tty_hangup_revoke_work);
	if (tty->driver->type != TTY_DRIVER_TYPE_PTY)
		return revokable_init(&tty->revokable, tty_revoke_kick);
	if (tty->driver->subtype == PTY_TYPE_MASTER)
		return revokable_init(&tty->revokable, tty_revoke_kick);
	return revokable_init(&tty->revokable, tty_revoke_kick);
}

/**
 * tty_make_revokable - the last step of opening a tty file
 * @tty: the tty, locked
 * @filp: the file being opened
 *
 * A file that a hangup marked while it was being opened (a driver's
 * ->open() may drop tty_lock to wait for carrier) and whose revoke has
 * already begun stays as it is: hung up, released at its close.
 *
 * Return: 0, or -ENOMEM.
 */
int tty_make_revokable(struct tty_struct *tty, struct file *filp)
{
	int retval;

	if (tty_file_is_console(filp))
		return 0;
	retval = make_revokable(filp, &tty->revokable, &hung_up_tty_fops);
	if (retval == -ENODEV && tty_hung_up_p(filp))
		return 0;
	return retval;
}

static bool tty_revoking(struct tty_struct *tty)
{
	return tty && test_bit(TTY_REVOKING, &tty->flags);
}

/**
 * tty_release_is_final - whether a release leaves the tty pair unused
 * @tty: the tty, locked, and its slave too if it is a pty master
 * @o_tty: the slave of a pty master, else NULL
 *
 * While a hangup revokes the files of either end, the hangup does the
 * final release once it is done: tty_hangup_revoke() must not see the
 * tty go away under it.
 *
 * Return: true if nothing holds @tty (or the pair) open and no hangup is
 * revoking either end.
 */
bool tty_release_is_final(struct tty_struct *tty, struct tty_struct *o_tty)
{
	return !tty->count && !(o_tty && o_tty->count) &&
	       !tty_revoking(tty) && !tty_revoking(tty->link);
}

/**
 * tty_hangup_revoke - revoke the files a hangup has marked
 * @tty: the tty, with %TTY_REVOKING set by __tty_hangup(); not locked
 *
 * Waits for no thread inside a method of a file of @tty, but may release
 * the files itself: not from a method of a file of @tty, whose class of
 * revokable revokable_exit() revokes too, nor under tty_lock.
 */
void tty_hangup_revoke(struct tty_struct *tty)
{
	struct tty_struct *o_tty = NULL;
	bool final;

	revoke_it_async(&tty->revokable);
	/*
	 * Reopens wait for TTY_REVOKING to clear, so re-arming before the
	 * final release is decided lets no file in. It must not be done
	 * under tty_lock, which the releases of revoke_it_async() take.
	 */
	revokable_rearm(&tty->revokable);

	if (tty->driver->type == TTY_DRIVER_TYPE_PTY &&
	    tty->driver->subtype == PTY_TYPE_MASTER)
		o_tty = tty->link;
	tty_lock(tty);
	tty_lock_slave(o_tty);
	clear_bit(TTY_REVOKING, &tty->flags);
	final = tty_release_is_final(tty, o_tty);
	tty_unlock_slave(o_tty);
	tty_unlock(tty);
	/* Reopens and other hangups sleep on the bit. */
	smp_mb();
	wake_up_bit(&tty->flags, TTY_REVOKING);

	if (final)
		tty_release_struct(tty, tty->index);
}

/*
 * The revoke of a hangup that a file of the tty asked for (TIOCVHANGUP):
 * not from inside the caller's method, see tty_hangup_revoke().
 */
static void tty_hangup_revoke_work(struct work_struct *work)
{
	struct tty_struct *tty = container_of(work, struct tty_struct,
					      revoke_work);

	tty_hangup_revoke(tty);
	tty_kref_put(tty);
}

/**
 * tty_hangup_revoke_later - revoke the files of a hangup from a work
 * @tty: the tty, with %TTY_REVOKING set by __tty_hangup()
 *
 * Every file of @tty behaves hung up already; the work releases them.
 */
void tty_hangup_revoke_later(struct tty_struct *tty)
{
	tty_kref_get(tty);
	if (!schedule_work(&tty->revoke_work))
		tty_kref_put(tty);
}

/**
 * tty_wait_revoked - wait for the revoke of a hangup to end
 * @tty: the tty
 *
 * Return: 0, or -ERESTARTSYS if a signal came first.
 */
int tty_wait_revoked(struct tty_struct *tty)
{
	/* wait_on_bit() says -EINTR; an open restarts, as tty_lock's does. */
	if (wait_on_bit(&tty->flags, TTY_REVOKING, TASK_INTERRUPTIBLE))
		return -ERESTARTSYS;
	return 0;
}

/**
 * tty_revoke_node - revoke the files of the tty that a device node names
 * @node: the node's path
 *
 * The file_operations.revoke_node of ttys, for revokeat(2): a vhangup()
 * of that tty, as its session leader would do it. A tty that nobody has
 * open has no file to revoke.
 *
 * Return: 0, or the error of finding the tty.
 */
int tty_revoke_node(const struct path *node)
{
	struct tty_struct *tty = tty_kref_get_by_node(node);

	if (IS_ERR(tty))
		return PTR_ERR(tty);
	if (tty) {
		tty_vhangup(tty);
		tty_kref_put(tty);
	}
	return 0;
}
