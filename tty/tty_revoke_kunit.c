// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the kick of a tty hangup: every wait queue a thread can
 * sleep on inside a tty method is woken, so that revoke_it() does not wait
 * for it forever.
 *
 * A sleeper is a kthread that queues itself on one wait queue of a tty and
 * sleeps until a single wakeup, with no condition to recheck: if the kick
 * misses its queue, it is still asleep when the test gives up on it.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/revoke.h>
#include <linux/sched.h>
#include <linux/wait.h>

#include "tty_kunit_tty.h"

/* How long a kicked sleeper may take to wake before the test gives up. */
#define TTY_TEST_WAIT	(10 * HZ)

struct tty_test_sleeper {
	struct wait_queue_head *wq;
	struct completion asleep;
	struct completion woken;
};

static int tty_test_sleep(void *data)
{
	struct tty_test_sleeper *s = data;
	DEFINE_WAIT(wait);

	prepare_to_wait(s->wq, &wait, TASK_INTERRUPTIBLE);
	complete(&s->asleep);
	schedule();
	finish_wait(s->wq, &wait);
	complete(&s->woken);
	return 0;
}

struct tty_test_queue {
	const char *name;
	struct wait_queue_head *(*of)(struct tty_struct *tty);
};

static struct wait_queue_head *tty_test_read_wait(struct tty_struct *tty)
{
	return &tty->read_wait;
}

static struct wait_queue_head *tty_test_write_wait(struct tty_struct *tty)
{
	return &tty->write_wait;
}

static struct wait_queue_head *tty_test_break_wait(struct tty_struct *tty)
{
	return &tty->break_wait;
}

static struct wait_queue_head *tty_test_msr_wait(struct tty_struct *tty)
{
	return &tty->port->delta_msr_wait;
}

/* The queues of the sleepers the issue of a hangup names. */
static const struct tty_test_queue tty_test_queues[] = {
	{ "read_wait: n_tty readers, pollers", tty_test_read_wait },
	{ "write_wait: writers, tcdrain(), pollers", tty_test_write_wait },
	{ "break_wait: TCSBRK, TIOCSBRK", tty_test_break_wait },
	{ "delta_msr_wait: TIOCMIWAIT", tty_test_msr_wait },
};

static void tty_test_queue_desc(const struct tty_test_queue *q, char *desc)
{
	strscpy(desc, q->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tty_test_queue, tty_test_queues, tty_test_queue_desc);

static const struct tty_operations tty_test_ops = {};

static int tty_test_init(struct kunit *test)
{
	struct tty_kunit_tty *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	tty_kunit_tty_init(test, t, &tty_test_ops);
	test->priv = t;
	return 0;
}

static void tty_test_exit(struct kunit *test)
{
	tty_kunit_tty_exit(test->priv);
}

/* The kick wakes a thread asleep on each queue. */
static void tty_kick_wakes_sleeper(struct kunit *test)
{
	const struct tty_test_queue *q = test->param_value;
	struct tty_kunit_tty *fixture = test->priv;
	struct tty_struct *tty = fixture->tty;
	struct tty_test_sleeper s = { .wq = q->of(tty) };
	struct task_struct *t;
	unsigned long left;

	init_completion(&s.asleep);
	init_completion(&s.woken);
	t = kthread_run(tty_test_sleep, &s, "tty_kunit_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&s.asleep);

	tty->revokable.kick(&tty->revokable);
	left = wait_for_completion_timeout(&s.woken, TTY_TEST_WAIT);
	KUNIT_EXPECT_NE_MSG(test, left, 0, "the kick left a sleeper on %s",
			    q->name);
	if (!left) {
		wake_up_all(s.wq);
		wait_for_completion(&s.woken);
	}
}

static struct kunit_case tty_revoke_test_cases[] = {
	KUNIT_CASE_PARAM(tty_kick_wakes_sleeper, tty_test_queue_gen_params),
	{}
};

static struct kunit_suite tty_revoke_test_suite = {
	.name = "tty_revoke",
	.init = tty_test_init,
	.exit = tty_test_exit,
	.test_cases = tty_revoke_test_cases,
};

kunit_test_suite(tty_revoke_test_suite);

MODULE_DESCRIPTION("KUnit tests for the kick of a tty hangup");
MODULE_LICENSE("GPL");
