/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tty for the KUnit tests of the tty core: one tty of a serial driver
 * with the operations a test gives, and a port, with no device behind
 * them and no line discipline opened.
 */
#ifndef _TTY_KUNIT_TTY_H
#define _TTY_KUNIT_TTY_H

#include <kunit/test.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/tty_port.h>

struct tty_kunit_tty {
	struct tty_driver *driver;
	struct tty_struct *tty;
	struct tty_port port;
};

void tty_kunit_tty_init(struct kunit *test, struct tty_kunit_tty *t,
			const struct tty_operations *ops);
void tty_kunit_tty_exit(struct tty_kunit_tty *t);

#endif /* _TTY_KUNIT_TTY_H */
