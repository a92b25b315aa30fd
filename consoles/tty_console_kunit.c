// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the console rule of a tty hangup: files opened as the
 * console are told apart, and while one is open a hangup closes the
 * revoked files in the driver instead of hanging the line up, once each.
 *
 * The driver is a tty_port driver whose ->close() is tty_port_close() and
 * whose port counts its shutdowns, the way the serial core uses a port.
 */

#include <kunit/test.h>
#include <linux/kdev_t.h>
#include <linux/major.h>

#include "tty_kunit_tty.h"
#include "../tty.h"

/* The files the tests open on the console's tty, besides the console. */
#define TTY_TEST_FILES	2

struct tty_test_device {
	const char *name;
	dev_t device;
	bool console;
};

static const struct tty_test_device tty_test_devices[] = {
	{ "/dev/console", MKDEV(TTYAUX_MAJOR, 1), true },
	{ "/dev/tty0", MKDEV(TTY_MAJOR, 0), true },
	{ "/dev/tty", MKDEV(TTYAUX_MAJOR, 0), false },
	{ "/dev/tty1", MKDEV(TTY_MAJOR, 1), false },
	{ "/dev/ttyS0", MKDEV(TTY_MAJOR, 64), false },
	{ "/dev/ptmx", MKDEV(TTYAUX_MAJOR, 2), false },
};

static void tty_test_device_desc(const struct tty_test_device *d, char *desc)
{
	strscpy(desc, d->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tty_test_device, tty_test_devices, tty_test_device_desc);

struct tty_test_file {
	struct file file;
	struct tty_file_private priv;
};

struct tty_test_ctx {
	struct tty_kunit_tty t;
	int hangups;
	int shutdowns;
	struct tty_test_file console;
	struct tty_test_file files[TTY_TEST_FILES];
};

static struct tty_test_ctx *tty_test_ctx_of(struct tty_struct *tty)
{
	return container_of(tty->port, struct tty_test_ctx, t.port);
}

static void tty_test_close(struct tty_struct *tty, struct file *filp)
{
	tty_port_close(tty->port, tty, filp);
}

static void tty_test_hangup(struct tty_struct *tty)
{
	tty_test_ctx_of(tty)->hangups++;
}

static void tty_test_shutdown(struct tty_port *port)
{
	container_of(port, struct tty_test_ctx, t.port)->shutdowns++;
}

static const struct tty_operations tty_test_ops = {
	.close = tty_test_close,
	.hangup = tty_test_hangup,
};

static const struct tty_port_operations tty_test_port_ops = {
	.shutdown = tty_test_shutdown,
};

static void tty_test_open(struct tty_test_ctx *ctx, struct tty_test_file *f,
			  dev_t device)
{
	f->file.private_data = &f->priv;
	f->priv.file = &f->file;
	f->priv.tty = ctx->t.tty;
	tty_file_set_console(&f->file, device);
	ctx->t.tty->count++;
	ctx->t.port.count++;
}

/* What tty_release() does with the driver for each file. */
static void tty_test_release(struct tty_test_ctx *ctx, struct tty_test_file *f)
{
	ctx->t.tty->ops->close(ctx->t.tty, &f->file);
	ctx->t.tty->count--;
}

static int tty_test_init(struct kunit *test)
{
	struct tty_test_ctx *ctx;
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	tty_kunit_tty_init(test, &ctx->t, &tty_test_ops);
	ctx->t.port.ops = &tty_test_port_ops;
	tty_port_set_initialized(&ctx->t.port, true);

	/* The console on the tty, then the files a hangup revokes. */
	tty_test_open(ctx, &ctx->console, MKDEV(TTYAUX_MAJOR, 1));
	for (i = 0; i < TTY_TEST_FILES; i++)
		tty_test_open(ctx, &ctx->files[i], MKDEV(TTY_MAJOR, 64));
	test->priv = ctx;
	return 0;
}

static void tty_test_exit(struct kunit *test)
{
	struct tty_test_ctx *ctx = test->priv;

	tty_kunit_tty_exit(&ctx->t);
}

/* Files opened as the console, and only those, are marked. */
static void tty_console_file_marked(struct kunit *test)
{
	const struct tty_test_device *d = test->param_value;
	struct tty_test_file *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->file.private_data = &f->priv;
	tty_file_set_console(&f->file, d->device);
	KUNIT_EXPECT_EQ(test, tty_file_is_console(&f->file), d->console);
}

/* Without a console file, the driver hears of the hangup by ->hangup(). */
static void tty_hangup_without_console(struct kunit *test)
{
	struct tty_test_ctx *ctx = test->priv;

	tty_hangup_driver(ctx->t.tty, NULL, TTY_TEST_FILES);
	KUNIT_EXPECT_EQ(test, ctx->hangups, 1);
	KUNIT_EXPECT_EQ(test, ctx->t.port.count, 1 + TTY_TEST_FILES);
}

/*
 * With a console file, each revoked file is closed in the driver once: at
 * the hangup, not again at its release. The port stays up for the console
 * and goes down at the console's own last close, as if nothing was hung up.
 */
static void tty_hangup_with_console(struct kunit *test)
{
	struct tty_test_ctx *ctx = test->priv;
	int i;

	tty_hangup_driver(ctx->t.tty, &ctx->console.file, TTY_TEST_FILES);
	KUNIT_EXPECT_EQ(test, ctx->hangups, 0);
	KUNIT_EXPECT_EQ(test, ctx->t.port.count, 1);

	for (i = 0; i < TTY_TEST_FILES; i++) {
		ctx->files[i].priv.hung_up = true;
		tty_test_release(ctx, &ctx->files[i]);
	}
	KUNIT_EXPECT_EQ(test, ctx->t.port.count, 1);
	KUNIT_EXPECT_EQ(test, ctx->shutdowns, 0);

	tty_test_release(ctx, &ctx->console);
	KUNIT_EXPECT_EQ(test, ctx->t.port.count, 0);
	KUNIT_EXPECT_EQ(test, ctx->shutdowns, 1);
}

static struct kunit_case tty_console_test_cases[] = {
	KUNIT_CASE_PARAM(tty_console_file_marked, tty_test_device_gen_params),
	KUNIT_CASE(tty_hangup_without_console),
	KUNIT_CASE(tty_hangup_with_console),
	{}
};

static struct kunit_suite tty_console_test_suite = {
	.name = "tty_console",
	.init = tty_test_init,
	.exit = tty_test_exit,
	.test_cases = tty_console_test_cases,
};

kunit_test_suite(tty_console_test_suite);

MODULE_DESCRIPTION("KUnit tests for the console rule of a tty hangup");
MODULE_LICENSE("GPL");
