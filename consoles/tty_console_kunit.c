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

#include "tty_kunit_tty.h"
#include "../tty.h"

/* The files the tests open on the console's tty, besides the console. */
#define TTY_TEST_FILES	2

/* f_op of a file opened as the console, and of any other */
static const struct file_operations tty_test_console_fops = {
	.write_iter	= redirected_tty_write,
};

static const struct file_operations tty_test_line_fops = {
};

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
			  const struct file_operations *fops)
{
	f->file.f_op = fops;
	f->file.private_data = &f->priv;
	f->priv.file = &f->file;
	f->priv.tty = ctx->t.tty;
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
	tty_test_open(ctx, &ctx->console, &tty_test_console_fops);
	for (i = 0; i < TTY_TEST_FILES; i++)
		tty_test_open(ctx, &ctx->files[i], &tty_test_line_fops);
	test->priv = ctx;
	return 0;
}

static void tty_test_exit(struct kunit *test)
{
	struct tty_test_ctx *ctx = test->priv;

	tty_kunit_tty_exit(&ctx->t);
}

/* Files with the console's write, and only those, are the console's. */
static void tty_console_file_told_by_its_fops(struct kunit *test)
{
	struct tty_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_TRUE(test, tty_file_is_console(&ctx->console.file));
	KUNIT_EXPECT_FALSE(test, tty_file_is_console(&ctx->files[0].file));
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
	KUNIT_CASE(tty_console_file_told_by_its_fops),
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
