// SPDX-License-Identifier: GPL-2.0
/*
 * A tty for the KUnit tests of the tty core, shared by their suites.
 */

#include "tty_kunit_tty.h"
#include "../tty.h"

/**
 * tty_kunit_tty_init - set up a tty for a test
 * @test: the test, which fails at once if the tty cannot be allocated
 * @t: the tty to set up
 * @ops: the operations of its driver
 *
 * The tty holds a reference to its driver, as tty_init_dev() takes it.
 * Its line discipline is never opened, so it is dropped: nothing touches
 * it, and a last close finds nothing to flush.
 */
void tty_kunit_tty_init(struct kunit *test, struct tty_kunit_tty *t,
			const struct tty_operations *ops)
{
	t->driver = tty_alloc_driver(1, TTY_DRIVER_UNNUMBERED_NODE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->driver));
	t->driver->driver_name = "tty_kunit";
	t->driver->name = "ttykunit";
	t->driver->type = TTY_DRIVER_TYPE_SERIAL;
	tty_set_operations(t->driver, ops);

	t->tty = alloc_tty_struct(t->driver, 0);
	if (!t->tty)
		tty_driver_kref_put(t->driver);
	KUNIT_ASSERT_NOT_NULL(test, t->tty);
	tty_driver_kref_get(t->driver);
	tty_ldisc_deinit(t->tty);

	tty_port_init(&t->port);
	t->tty->port = &t->port;
}

/**
 * tty_kunit_tty_exit - put what tty_kunit_tty_init() set up
 * @t: the tty
 */
void tty_kunit_tty_exit(struct tty_kunit_tty *t)
{
	t->tty->port = NULL;
	/* Its release, from a work, puts the tty's reference to the driver. */
	tty_kref_put(t->tty);
	tty_port_destroy(&t->port);
	tty_driver_kref_put(t->driver);
}
