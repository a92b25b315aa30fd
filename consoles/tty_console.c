// SPDX-License-Identifier: GPL-2.0
/*
 * The console rule of a tty hangup.
 *
 * Files of /dev/console and /dev/tty0 sit on the tty of the device that is
 * the console, but stand for the console, not for that tty: a hangup of
 * the tty leaves them working. They are never made revokable, and while
 * one of them is open the driver hears of a hangup as one ->close() per
 * revoked file instead of a ->hangup() that would take the line down
 * under the console.
 */

#include <linux/tty.h>
#include <linux/tty_driver.h>

#include "tty.h"

/**
 * tty_file_is_console - whether a tty file was opened as the console
 * @filp: a file of a tty
 *
 * Both nodes have console_fops, and f_op never changes on a tty file:
 * this is the test 6.12 made on every file at each hangup.
 *
 * Return: true for files of /dev/console and /dev/tty0, which a hangup of
 * their tty leaves working.
 */
bool tty_file_is_console(struct file *filp)
{
	return filp->f_op->write_iter == redirected_tty_write;
}

/**
 * tty_hangup_driver - tell the driver of a hangup, sparing a console
 * @tty: the tty being hung up, locked
 * @cons_filp: a console file open on @tty, or NULL
 * @closecount: the number of files the hangup revokes
 *
 * With a console file open, the driver gets the ->close() of each revoked
 * file now, through @cons_filp, which keeps its open count in step with
 * tty->count. The revoked files' own releases later leave the driver's
 * count alone: they are hung up, and tty_port_close_start() skips those.
 */
void tty_hangup_driver(struct tty_struct *tty, struct file *cons_filp,
		       int closecount)
{
	if (!cons_filp) {
		if (tty->ops->hangup)
			tty->ops->hangup(tty);
		return;
	}
	if (tty->ops->close)
		while (closecount--)
			tty->ops->close(tty, cons_filp);
}
