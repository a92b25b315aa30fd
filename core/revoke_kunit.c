// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for revoke: the contract written in <linux/revoke.h> and in
 * the kernel-doc of fs/revoke.c, one claim per test.
 *
 * The files are anonymous inode files on a table of file_operations whose
 * methods count their calls. A thread "inside a method" is a kthread that
 * calls start_using() and then blocks; races are put in the order a test
 * wants with completions, and every wait is bounded, so that a bug fails a
 * test instead of hanging the run.
 */

#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/revoke.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/wait.h>

/* How long any awaited event may take before the test gives up on it. */
#define REVOKE_TEST_WAIT		(10 * HZ)
/* How long a test watches for an event that must not happen yet. */
#define REVOKE_TEST_QUIET		msecs_to_jiffies(100)

#define REVOKE_TEST_MANY_FILES		10000
#define REVOKE_TEST_RACES		100
#define REVOKE_TEST_HAMMERS		4
#define REVOKE_TEST_HAMMER_REFUSALS	100
#define REVOKE_TEST_MAKER_FILES		4096
#define REVOKE_TEST_MAKER_HEADSTART	16
#define REVOKE_TEST_MAKER_REFUSALS	16

/* What the owner's revoked table answers, unlike the core's -ENODEV. */
#define REVOKE_TEST_REVOKED_ERR		(-EIO)
#define REVOKE_TEST_REVOKED_POLL	EPOLLHUP
#define REVOKE_TEST_LIVE_POLL		(EPOLLIN | EPOLLOUT)

/**
 * struct revoke_test_obj - an object files are opened on
 * @revokable: what revoke_it() and friends work on
 * @wq: where methods of its files sleep; revoke_test_kick() wakes it
 * @inside: test threads between start_using() and stop_using()
 * @kicks: calls of revoke_test_kick()
 * @inside_at_first_kick: @inside when the first kick ran
 * @kicked: completed by every kick
 * @seq: orders events of a test: each event takes the next number
 * @rcu: to free the object RCU-deferred, as the contract asks
 */
struct revoke_test_obj {
	struct revokable revokable;
	wait_queue_head_t wq;
	atomic_t inside;
	atomic_t kicks;
	int inside_at_first_kick;
	struct completion kicked;
	atomic_t seq;
	struct rcu_head rcu;
};

/**
 * struct revoke_test_file - one test file and what happened to it
 * @obj: the object it is opened on, or NULL
 * @file: the file
 * @releases: calls of ->release()
 * @live_calls: calls of the other methods of the live table
 * @revoked_calls: calls of methods of the owner's revoked table
 * @fasync_offs: calls of the live ->fasync() turning fasync off
 * @revoked_fasyncs: calls of the revoked table's ->fasync()
 * @revoked_releases: calls of the revoked table's ->release()
 * @released_by: the thread that ran ->release()
 * @release_seq: when ->release() returned, from @obj->seq
 * @block_release: makes ->release() wait for @finish_release
 * @in_release: completed when ->release() has begun
 * @finish_release: lets a blocking ->release() return
 */
struct revoke_test_file {
	struct revoke_test_obj *obj;
	struct file *file;
	atomic_t releases;
	atomic_t live_calls;
	atomic_t revoked_calls;
	atomic_t fasync_offs;
	atomic_t revoked_fasyncs;
	atomic_t revoked_releases;
	struct task_struct *released_by;
	int release_seq;
	bool block_release;
	struct completion in_release;
	struct completion finish_release;
};

static int revoke_test_next_seq(struct revoke_test_obj *obj)
{
	return atomic_inc_return(&obj->seq);
}

static struct revoke_test_file *revoke_test_tf(struct file *file)
{
	return file->private_data;
}

static ssize_t revoke_test_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	atomic_inc(&revoke_test_tf(iocb->ki_filp)->live_calls);
	return 0;
}

static ssize_t revoke_test_write_iter(struct kiocb *iocb,
				      struct iov_iter *from)
{
	size_t count = iov_iter_count(from);

	atomic_inc(&revoke_test_tf(iocb->ki_filp)->live_calls);
	iov_iter_advance(from, count);
	return count;
}

static __poll_t revoke_test_poll(struct file *file, poll_table *wait)
{
	struct revoke_test_file *tf = revoke_test_tf(file);

	atomic_inc(&tf->live_calls);
	if (tf->obj)
		poll_wait(file, &tf->obj->wq, wait);
	return REVOKE_TEST_LIVE_POLL;
}

static long revoke_test_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	atomic_inc(&revoke_test_tf(file)->live_calls);
	return 0;
}

static int revoke_test_fasync(int fd, struct file *file, int on)
{
	if (!on)
		atomic_inc(&revoke_test_tf(file)->fasync_offs);
	return 0;
}

static int revoke_test_release(struct inode *inode, struct file *file)
{
	struct revoke_test_file *tf = revoke_test_tf(file);

	complete(&tf->in_release);
	if (tf->block_release)
		wait_for_completion_timeout(&tf->finish_release,
					    REVOKE_TEST_WAIT);
	tf->released_by = current;
	if (tf->obj)
		tf->release_seq = revoke_test_next_seq(tf->obj);
	atomic_inc(&tf->releases);
	return 0;
}

static const struct file_operations revoke_test_fops = {
	.owner		= THIS_MODULE,
	.read_iter	= revoke_test_read_iter,
	.write_iter	= revoke_test_write_iter,
	.poll		= revoke_test_poll,
	.unlocked_ioctl	= revoke_test_ioctl,
	.fasync		= revoke_test_fasync,
	.release	= revoke_test_release,
};

static ssize_t revoke_test_revoked_rw(struct kiocb *iocb, struct iov_iter *iter)
{
	atomic_inc(&revoke_test_tf(iocb->ki_filp)->revoked_calls);
	return REVOKE_TEST_REVOKED_ERR;
}

static __poll_t revoke_test_revoked_poll(struct file *file, poll_table *wait)
{
	atomic_inc(&revoke_test_tf(file)->revoked_calls);
	return REVOKE_TEST_REVOKED_POLL;
}

static long revoke_test_revoked_ioctl(struct file *file, unsigned int cmd,
				      unsigned long arg)
{
	atomic_inc(&revoke_test_tf(file)->revoked_calls);
	return REVOKE_TEST_REVOKED_ERR;
}

static int revoke_test_revoked_fasync(int fd, struct file *file, int on)
{
	atomic_inc(&revoke_test_tf(file)->revoked_fasyncs);
	return 0;
}

static int revoke_test_revoked_release(struct inode *inode, struct file *file)
{
	atomic_inc(&revoke_test_tf(file)->revoked_releases);
	return 0;
}

/* The owner's own table for revoked files. */
static const struct file_operations revoke_test_revoked_fops = {
	.owner		= THIS_MODULE,
	.read_iter	= revoke_test_revoked_rw,
	.write_iter	= revoke_test_revoked_rw,
	.poll		= revoke_test_revoked_poll,
	.unlocked_ioctl	= revoke_test_revoked_ioctl,
	.fasync		= revoke_test_revoked_fasync,
	.release	= revoke_test_revoked_release,
};

/*
 * A well-behaved kick: wakes every sleeper on the object. It also notes
 * what the tests check about kicks.
 */
static void revoke_test_kick(struct revokable *r)
{
	struct revoke_test_obj *obj =
		container_of(r, struct revoke_test_obj, revokable);

	if (atomic_inc_return(&obj->kicks) == 1)
		obj->inside_at_first_kick = atomic_read(&obj->inside);
	complete_all(&obj->kicked);
	wake_up_all(&obj->wq);
}

/* Runs @fn(@ctx) at the end of the test, or now if that cannot be set up. */
static void revoke_test_defer(struct kunit *test, kunit_action_t *fn,
			      void *ctx)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fn, ctx), 0);
}

static bool revoke_test_wait(struct completion *done)
{
	return wait_for_completion_timeout(done, REVOKE_TEST_WAIT);
}

static void revoke_test_obj_destroy(void *data)
{
	struct revoke_test_obj *obj = data;

	revokable_exit(&obj->revokable);
	kfree_rcu(obj, rcu);
}

/* A live object, torn down as its owner would at the end of the test. */
static struct revoke_test_obj *revoke_test_obj_create(struct kunit *test)
{
	struct revoke_test_obj *obj;
	int err;

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	init_waitqueue_head(&obj->wq);
	init_completion(&obj->kicked);
	obj->inside_at_first_kick = -1;
	err = revokable_init(&obj->revokable, revoke_test_kick);
	if (err)
		kfree(obj);
	KUNIT_ASSERT_EQ(test, err, 0);
	revoke_test_defer(test, revoke_test_obj_destroy, obj);
	return obj;
}

/* Test threads are kthreads: their last fput() must not be deferred. */
static void revoke_test_fput(void *file)
{
	__fput_sync(file);
}

static void revoke_test_file_init(struct revoke_test_file *tf,
				  struct revoke_test_obj *obj)
{
	tf->obj = obj;
	init_completion(&tf->in_release);
	init_completion(&tf->finish_release);
}

static struct file *revoke_test_getfile(struct revoke_test_file *tf,
					const struct file_operations *fops)
{
	return anon_inode_getfile("[revoke_test]", fops, tf, O_RDWR);
}

/* A file on @fops, not revokable yet, closed at the end of the test. */
static struct revoke_test_file *
revoke_test_file_create_fops(struct kunit *test, struct revoke_test_obj *obj,
			     const struct file_operations *fops)
{
	struct revoke_test_file *tf;
	struct file *file;

	tf = kunit_kzalloc(test, sizeof(*tf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tf);
	revoke_test_file_init(tf, obj);
	file = revoke_test_getfile(tf, fops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	tf->file = file;
	revoke_test_defer(test, revoke_test_fput, file);
	return tf;
}

static struct revoke_test_file *
revoke_test_file_create(struct kunit *test, struct revoke_test_obj *obj)
{
	return revoke_test_file_create_fops(test, obj, &revoke_test_fops);
}

/* A file opened on @obj, as the last step of an ->open() would leave it. */
static struct revoke_test_file *
revoke_test_open(struct kunit *test, struct revoke_test_obj *obj,
		 const struct file_operations *revoked_fops)
{
	struct revoke_test_file *tf = revoke_test_file_create(test, obj);

	KUNIT_ASSERT_EQ(test, make_revokable(tf->file, &obj->revokable,
					     revoked_fops), 0);
	return tf;
}

/* The test's last fput() of @tf's file, now. */
static void revoke_test_close(struct kunit *test, struct revoke_test_file *tf)
{
	kunit_release_action(test, revoke_test_fput, tf->file);
}

/* The test's reference to @tf's file becomes a thread's, to close. */
static void revoke_test_give_away(struct kunit *test,
				  struct revoke_test_file *tf)
{
	kunit_remove_action(test, revoke_test_fput, tf->file);
}

static void revoke_test_stop_thread(void *task)
{
	kthread_stop_put(task);
}

static struct task_struct *revoke_test_thread(struct kunit *test,
					      int (*fn)(void *), void *data)
{
	struct task_struct *task;

	task = kthread_create(fn, data, "revoke_test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	revoke_test_defer(test, revoke_test_stop_thread, task);
	wake_up_process(task);
	return task;
}

/**
 * struct revoke_test_sitter - a thread that sits inside a method
 * @tf: the file whose method it is in
 * @kicks_needed: leave once this many kicks have run; 0: when told to
 * @late: begin to sleep only after the first kick, then wait for another
 * @entered: start_using() succeeded
 * @woken: left for what it waited for, not because its wait timed out
 * @pending_at_leave: revoke_pending() just before it left
 * @leaving: set just before stop_using()
 * @left_seq: when it left, from the object's sequence
 * @tried: completed once start_using() returned
 * @leave: tells a sitter with no @kicks_needed to leave
 * @left: completed when the thread is done
 */
struct revoke_test_sitter {
	struct revoke_test_file *tf;
	unsigned int kicks_needed;
	bool late;
	bool entered;
	bool woken;
	bool pending_at_leave;
	bool leaving;
	int left_seq;
	struct completion tried;
	struct completion leave;
	struct completion left;
};

static bool revoke_test_kicks_reached(struct revoke_test_obj *obj,
				      unsigned int n)
{
	return atomic_read(&obj->kicks) >= n;
}

static int revoke_test_sitter_fn(void *data)
{
	struct revoke_test_sitter *s = data;
	struct revoke_test_obj *obj = s->tf->obj;
	struct file *file = s->tf->file;

	s->entered = start_using(file);
	if (s->entered)
		atomic_inc(&obj->inside);
	complete(&s->tried);
	if (!s->entered)
		goto out;

	if (s->late || s->kicks_needed) {
		unsigned int want = s->kicks_needed;

		if (s->late) {
			/* Busy elsewhere while the first kick runs. */
			wait_for_completion_timeout(&obj->kicked,
						    REVOKE_TEST_WAIT);
			want = atomic_read(&obj->kicks) + 1;
		}
		s->woken = wait_event_timeout(obj->wq,
					      revoke_test_kicks_reached(obj, want),
					      REVOKE_TEST_WAIT);
	} else {
		s->woken = revoke_test_wait(&s->leave);
	}

	s->pending_at_leave = revoke_pending();
	s->left_seq = revoke_test_next_seq(obj);
	WRITE_ONCE(s->leaving, true);
	atomic_dec(&obj->inside);
	stop_using(file);
out:
	complete(&s->left);
	return 0;
}

static void revoke_test_sitter_let_go(void *data)
{
	struct revoke_test_sitter *s = data;

	complete_all(&s->leave);
}

/* Starts a thread that sits inside a method of @tf until it may leave. */
static struct revoke_test_sitter *
revoke_test_sit(struct kunit *test, struct revoke_test_file *tf,
		unsigned int kicks_needed, bool late)
{
	struct revoke_test_sitter *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->tf = tf;
	s->kicks_needed = kicks_needed;
	s->late = late;
	init_completion(&s->tried);
	init_completion(&s->leave);
	init_completion(&s->left);
	revoke_test_thread(test, revoke_test_sitter_fn, s);
	/* Runs before the thread is stopped, should the test fail. */
	revoke_test_defer(test, revoke_test_sitter_let_go, s);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&s->tried));
	KUNIT_ASSERT_TRUE(test, s->entered);
	return s;
}

/**
 * struct revoke_test_revoker - a thread that calls revoke_it()
 * @obj: the object it revokes
 * @go: if set, waited for before revoke_it()
 * @killable: calls revoke_it_killable() instead, and may be killed
 * @task: the thread
 * @ret: what revoke_it_killable() returned
 * @done_seq: when revoke_it() returned, from @obj->seq
 * @done: completed when revoke_it() returned
 *
 * Not a test resource: if revoke_it() never returns, the test is failed
 * and this, the thread and the object are left to it.
 */
struct revoke_test_revoker {
	struct revoke_test_obj *obj;
	struct completion *go;
	bool killable;
	struct task_struct *task;
	int ret;
	int done_seq;
	struct completion done;
};

static int revoke_test_revoker_fn(void *data)
{
	struct revoke_test_revoker *rv = data;

	if (rv->go)
		wait_for_completion_timeout(rv->go, REVOKE_TEST_WAIT);
	if (rv->killable) {
		allow_signal(SIGKILL);
		rv->ret = revoke_it_killable(&rv->obj->revokable);
	} else {
		revoke_it(&rv->obj->revokable);
	}
	rv->done_seq = revoke_test_next_seq(rv->obj);
	complete(&rv->done);
	return 0;
}

static void revoke_test_revoker_stop(void *data)
{
	struct revoke_test_revoker *rv = data;

	kthread_stop_put(rv->task);
	kfree(rv);
}

/*
 * Starts revoke_it() (or revoke_it_killable() if @killable) on @obj in a
 * thread of its own, after @go if set.
 */
static struct revoke_test_revoker *
__revoke_test_start_revoke(struct kunit *test, struct revoke_test_obj *obj,
			   struct completion *go, bool killable)
{
	struct revoke_test_revoker *rv;
	struct task_struct *task;

	rv = kzalloc(sizeof(*rv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rv);
	rv->obj = obj;
	rv->go = go;
	rv->killable = killable;
	init_completion(&rv->done);
	task = kthread_create(revoke_test_revoker_fn, rv, "revoke_test");
	if (IS_ERR(task))
		kfree(rv);
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	rv->task = task;
	revoke_test_defer(test, revoke_test_revoker_stop, rv);
	wake_up_process(task);
	return rv;
}

static struct revoke_test_revoker *
revoke_test_start_revoke(struct kunit *test, struct revoke_test_obj *obj,
			 struct completion *go)
{
	return __revoke_test_start_revoke(test, obj, go, false);
}

/*
 * Waits for the revoke_it() of @rv to return. One that does not fails the
 * test, which then leaves it and its object alone so as to end at all.
 */
static void revoke_test_finish_revoke(struct kunit *test,
				      struct revoke_test_revoker *rv)
{
	if (revoke_test_wait(&rv->done))
		return;
	kunit_remove_action(test, revoke_test_revoker_stop, rv);
	kunit_remove_action(test, revoke_test_obj_destroy, rv->obj);
	KUNIT_ASSERT_TRUE_MSG(test, false, "revoke_it() did not return");
}

/* revoke_it(@obj), bounded. */
static void revoke_test_revoke(struct kunit *test, struct revoke_test_obj *obj)
{
	revoke_test_finish_revoke(test, revoke_test_start_revoke(test, obj,
								 NULL));
}

/* When a closer thread does its fput(), once it may go. */
enum revoke_test_close_when {
	REVOKE_TEST_CLOSE_AT_ONCE,
	/* once revoke_it() has begun: start_using() fails from then on */
	REVOKE_TEST_CLOSE_WHEN_DYING,
	/* once revoke_it() is past waiting for callers, releasing files */
	REVOKE_TEST_CLOSE_WHEN_RELEASING,
	REVOKE_TEST_CLOSE_WHEN_NR
};

/**
 * struct revoke_test_closer - a thread that does the last fput() of a file
 * @tf: the file
 * @go: if set, waited for before the fput()
 * @when: what the fput() waits for after @go
 * @done_seq: when the fput() returned, from the object's sequence
 * @done: completed when the fput() returned
 */
struct revoke_test_closer {
	struct revoke_test_file *tf;
	struct completion *go;
	enum revoke_test_close_when when;
	int done_seq;
	struct completion done;
};

static bool revoke_test_may_close(struct revoke_test_closer *c)
{
	struct revokable *r = &c->tf->obj->revokable;

	switch (c->when) {
	case REVOKE_TEST_CLOSE_WHEN_DYING:
		return revokable_is_dying(r);
	case REVOKE_TEST_CLOSE_WHEN_RELEASING:
		return READ_ONCE(r->dead);
	default:
		return true;
	}
}

static int revoke_test_closer_fn(void *data)
{
	struct revoke_test_closer *c = data;
	struct revoke_test_obj *obj = c->tf->obj;
	unsigned long deadline = jiffies + REVOKE_TEST_WAIT;

	if (c->go)
		wait_for_completion_timeout(c->go, REVOKE_TEST_WAIT);
	/* Spin rather than sleep, to come while revoke_it() is at it. */
	while (!revoke_test_may_close(c) && time_before(jiffies, deadline))
		cond_resched();
	__fput_sync(c->tf->file);
	c->done_seq = revoke_test_next_seq(obj);
	complete(&c->done);
	return 0;
}

/* Hands the test's reference to @tf's file to a new closer thread. */
static struct revoke_test_closer *
revoke_test_alloc_closer(struct kunit *test, struct revoke_test_file *tf,
			 struct completion *go)
{
	struct revoke_test_closer *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->tf = tf;
	c->go = go;
	init_completion(&c->done);
	revoke_test_give_away(test, tf);
	return c;
}

/*
 * Waits until the other side of a release, revoke_it() or the last fput(),
 * waits for the ->release() of @tf that is under way: it has then left its
 * completion in the struct revoke of the file.
 */
static bool revoke_test_wait_for_release_waiter(struct revoke_test_file *tf)
{
	unsigned long deadline = jiffies + REVOKE_TEST_WAIT;

	while (!READ_ONCE(tf->file->f_revoke->released)) {
		if (time_after(jiffies, deadline))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

/**
 * struct revoke_test_revoking - a revoke_it() kept waiting for a thread
 * @sitter: the thread inside a method, which leaves when told
 * @revoker: the thread in revoke_it()
 */
struct revoke_test_revoking {
	struct revoke_test_sitter *sitter;
	struct revoke_test_revoker *revoker;
};

/*
 * Starts a revoke of @obj that cannot end before revoke_test_end_revoke():
 * once the first kick ran, revoke_it() has killed the revokable and waits.
 */
static void revoke_test_begin_revoke(struct kunit *test,
				     struct revoke_test_obj *obj,
				     struct revoke_test_revoking *rv)
{
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	rv->sitter = revoke_test_sit(test, tf, 0, false);
	rv->revoker = revoke_test_start_revoke(test, obj, NULL);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&obj->kicked));
}

static void revoke_test_end_revoke(struct kunit *test,
				   struct revoke_test_revoking *rv)
{
	complete(&rv->sitter->leave);
	revoke_test_finish_revoke(test, rv->revoker);
}

static void revoke_test_set_fasync(struct file *file)
{
	spin_lock(&file->f_lock);
	file->f_flags |= FASYNC;
	spin_unlock(&file->f_lock);
}

/* start_using() and start_using_fops() */

static void test_start_using_succeeds_on_live_file(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	bool entered = start_using(tf->file);

	KUNIT_EXPECT_TRUE(test, entered);
	if (entered)
		stop_using(tf->file);
}

static void test_start_using_fails_after_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	bool entered;

	revoke_test_revoke(test, obj);
	entered = start_using(tf->file);
	KUNIT_EXPECT_FALSE(test, entered);
	if (entered)
		stop_using(tf->file);
}

static void test_start_using_fails_while_revoke_waits(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_revoking rv;
	bool entered;

	revoke_test_begin_revoke(test, obj, &rv);
	entered = start_using(tf->file);
	KUNIT_EXPECT_FALSE(test, entered);
	if (entered)
		stop_using(tf->file);
	revoke_test_end_revoke(test, &rv);
}

static void test_start_using_succeeds_on_unrevokable_file(struct kunit *test)
{
	struct revoke_test_file *tf = revoke_test_file_create(test, NULL);
	bool entered = start_using(tf->file);

	KUNIT_EXPECT_TRUE(test, entered);
	if (entered)
		stop_using(tf->file);
}

static void test_start_using_fops_returns_f_op_while_live(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	const struct file_operations *fop = start_using_fops(tf->file);

	KUNIT_EXPECT_PTR_EQ(test, fop, &revoke_test_fops);
	stop_using_fops(tf->file, fop);
}

static void
test_start_using_fops_returns_owner_table_after_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	const struct file_operations *fop;

	revoke_test_revoke(test, obj);
	fop = start_using_fops(tf->file);
	KUNIT_EXPECT_PTR_EQ(test, fop, &revoke_test_revoked_fops);
	stop_using_fops(tf->file, fop);
}

static void
test_start_using_fops_returns_core_table_after_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	const struct file_operations *fop;

	revoke_test_revoke(test, obj);
	fop = start_using_fops(tf->file);
	KUNIT_EXPECT_NOT_NULL(test, fop);
	KUNIT_EXPECT_PTR_NE(test, fop, &revoke_test_fops);
	KUNIT_EXPECT_PTR_NE(test, fop, &revoke_test_revoked_fops);
	stop_using_fops(tf->file, fop);
}

/* The VFS calls the live table, the owner's revoked one, or the core's. */

static void test_vfs_read_while_live_calls_live_method(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	char buf[8];
	loff_t pos = 0;

	KUNIT_EXPECT_EQ(test, kernel_read(tf->file, buf, sizeof(buf), &pos), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_calls), 0);
}

static void
test_vfs_read_after_revoke_calls_owner_revoked_method(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	char buf[8];
	loff_t pos = 0;

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, kernel_read(tf->file, buf, sizeof(buf), &pos),
			REVOKE_TEST_REVOKED_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

static void test_core_revoked_read_fails_with_enodev(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	char buf[8];
	loff_t pos = 0;

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, kernel_read(tf->file, buf, sizeof(buf), &pos),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

static void test_core_revoked_write_fails_with_enodev(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	char buf[8] = "revoked";
	loff_t pos = 0;

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, kernel_write(tf->file, buf, sizeof(buf), &pos),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

static void test_core_revoked_ioctl_fails_with_enodev(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, vfs_ioctl(tf->file, 0, 0), -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

static void test_core_revoked_poll_reports_err_and_hup(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_TRUE(test, vfs_poll(tf->file, NULL) == (EPOLLERR | EPOLLHUP));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

/* make_revokable() */

static void
test_make_revokable_fails_with_enodev_after_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf;

	revoke_test_revoke(test, obj);
	tf = revoke_test_file_create(test, obj);
	KUNIT_EXPECT_EQ(test, make_revokable(tf->file, &obj->revokable, NULL),
			-ENODEV);
	KUNIT_EXPECT_FALSE(test, tf->file->f_mode & FMODE_REVOKABLE);
}

static void
test_make_revokable_fails_with_enodev_while_revoke_waits(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_file_create(test, obj);
	struct revoke_test_revoking rv;

	revoke_test_begin_revoke(test, obj, &rv);
	KUNIT_EXPECT_EQ(test, make_revokable(tf->file, &obj->revokable, NULL),
			-ENODEV);
	KUNIT_EXPECT_FALSE(test, tf->file->f_mode & FMODE_REVOKABLE);
	revoke_test_end_revoke(test, &rv);
}

static void test_make_revokable_succeeds_after_rearm(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf;

	revoke_test_revoke(test, obj);
	revokable_rearm(&obj->revokable);
	tf = revoke_test_file_create(test, obj);
	KUNIT_EXPECT_EQ(test, make_revokable(tf->file, &obj->revokable, NULL),
			0);
	KUNIT_EXPECT_TRUE(test, tf->file->f_mode & FMODE_REVOKABLE);
}

#ifdef CONFIG_REVOKE_KUNIT_TEST_WARN
/* Each of these hits a WARN_ON_ONCE() in make_revokable(). */

static void test_make_revokable_rejects_atomic_pos_file(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_file_create(test, obj);
	struct file *file = tf->file;

	/* As do_dentry_open() marks regular files and directories. */
	file->f_mode |= FMODE_ATOMIC_POS;
	KUNIT_EXPECT_EQ(test, make_revokable(file, &obj->revokable, NULL),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, file->f_mode & FMODE_REVOKABLE);
	file->f_mode &= ~FMODE_ATOMIC_POS;
}

static int revoke_test_lock(struct file *file, int cmd, struct file_lock *fl)
{
	return -ENOLCK;
}

/* A table with a method whose callers start_using() does not guard. */
static const struct file_operations revoke_test_lock_fops = {
	.owner		= THIS_MODULE,
	.lock		= revoke_test_lock,
	.release	= revoke_test_release,
};

static void test_make_revokable_rejects_f_op_with_lock(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_file_create_fops(test, obj, &revoke_test_lock_fops);

	KUNIT_EXPECT_EQ(test, make_revokable(tf->file, &obj->revokable, NULL),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, tf->file->f_mode & FMODE_REVOKABLE);
}

static void
test_make_revokable_rejects_f_op_as_revoked_table(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_file_create(test, obj);

	KUNIT_EXPECT_EQ(test, make_revokable(tf->file, &obj->revokable,
					     &revoke_test_fops), -EINVAL);
	KUNIT_EXPECT_FALSE(test, tf->file->f_mode & FMODE_REVOKABLE);
}
#endif /* CONFIG_REVOKE_KUNIT_TEST_WARN */

/**
 * struct revoke_test_maker - a thread that opens files while a revoke runs
 * @obj: the object the files are opened on
 * @files: the files, each on its own state
 * @results: what make_revokable() returned for each file
 * @made: how many of @files were opened
 * @error: why opening a file failed, or 0
 * @headstart: completed once a few files are revokable
 * @done: completed when the thread is done
 */
struct revoke_test_maker {
	struct revoke_test_obj *obj;
	struct revoke_test_file *files;
	int *results;
	unsigned int made;
	int error;
	struct completion headstart;
	struct completion done;
};

static int revoke_test_maker_fn(void *data)
{
	struct revoke_test_maker *m = data;
	unsigned int i, refused = 0;

	for (i = 0; i < REVOKE_TEST_MAKER_FILES; i++) {
		struct revoke_test_file *tf = &m->files[i];
		struct file *file;

		revoke_test_file_init(tf, m->obj);
		file = revoke_test_getfile(tf, &revoke_test_fops);
		if (IS_ERR(file)) {
			m->error = PTR_ERR(file);
			break;
		}
		tf->file = file;
		m->made = i + 1;
		m->results[i] = make_revokable(file, &m->obj->revokable, NULL);
		if (i + 1 == REVOKE_TEST_MAKER_HEADSTART)
			complete(&m->headstart);
		if (m->results[i] == -ENODEV &&
		    ++refused == REVOKE_TEST_MAKER_REFUSALS)
			break;
		cond_resched();
	}
	complete(&m->headstart);
	complete(&m->done);
	return 0;
}

static void revoke_test_maker_close(void *data)
{
	struct revoke_test_maker *m = data;
	unsigned int i;

	for (i = 0; i < m->made; i++)
		__fput_sync(m->files[i].file);
}

static void
test_make_revokable_racing_revoke_is_refused_or_released(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	unsigned int i, live = 0, refused = 0, wrong = 0;
	struct revoke_test_maker *m;
	bool dead = false;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->files = kunit_kcalloc(test, REVOKE_TEST_MAKER_FILES,
				 sizeof(*m->files), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->files);
	m->results = kunit_kcalloc(test, REVOKE_TEST_MAKER_FILES,
				   sizeof(*m->results), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->results);
	m->obj = obj;
	init_completion(&m->headstart);
	init_completion(&m->done);
	revoke_test_defer(test, revoke_test_maker_close, m);

	revoke_test_thread(test, revoke_test_maker_fn, m);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&m->headstart));
	revoke_test_revoke(test, obj);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&m->done));
	KUNIT_ASSERT_EQ(test, m->error, 0);

	/*
	 * Nothing was closed yet: a file that make_revokable() took must have
	 * been released by revoke_it(), one it refused never was.
	 */
	for (i = 0; i < m->made; i++) {
		struct revoke_test_file *tf = &m->files[i];
		int releases = atomic_read(&tf->releases);

		if (m->results[i] == 0 && !dead && releases == 1) {
			live++;
		} else if (m->results[i] == -ENODEV && releases == 0 &&
			   !(tf->file->f_mode & FMODE_REVOKABLE)) {
			dead = true;
			refused++;
		} else {
			wrong++;
		}
	}
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_GE(test, live, REVOKE_TEST_MAKER_HEADSTART);
	KUNIT_EXPECT_EQ(test, refused, REVOKE_TEST_MAKER_REFUSALS);
	kunit_info(test, "%u files made revokable, then %u refused\n",
		   live, refused);
}

/* revoke_it() and ->release() */

static void test_revoke_it_releases_each_file_once(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf[3];
	int i;

	for (i = 0; i < ARRAY_SIZE(tf); i++)
		tf[i] = revoke_test_open(test, obj, NULL);
	revoke_test_revoke(test, obj);
	for (i = 0; i < ARRAY_SIZE(tf); i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&tf[i]->releases), 1);
}

static void
test_last_fput_after_revoke_does_not_release_again(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_revoke(test, obj);
	revoke_test_close(test, tf);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
}

static void test_last_fput_of_live_file_releases_it_once(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_close(test, tf);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
}

static void test_revoke_it_skips_files_already_closed(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *closed = revoke_test_open(test, obj, NULL);
	struct revoke_test_file *open = revoke_test_open(test, obj, NULL);

	revoke_test_close(test, closed);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&closed->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&open->releases), 1);
}

static void test_revoke_it_again_does_nothing(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_revoke(test, obj);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&obj->kicks), 0);
}

static void test_revoke_it_turns_fasync_off(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);

	revoke_test_set_fasync(tf->file);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->fasync_offs), 1);
}

static void test_last_fput_after_revoke_calls_no_live_fasync(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);

	revoke_test_set_fasync(tf->file);
	revoke_test_revoke(test, obj);
	revoke_test_close(test, tf);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->fasync_offs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_fasyncs), 1);
}

static void test_last_fput_after_revoke_calls_revoked_release(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_releases), 0);
	revoke_test_close(test, tf);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_releases), 1);
}

static void test_close_before_revoke_calls_no_revoked_release(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);

	revoke_test_close(test, tf);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_releases), 0);
}

static void
test_revoke_it_waits_for_release_begun_by_last_fput(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	struct revoke_test_revoker *rv;
	struct revoke_test_closer *c;
	struct task_struct *closer;

	tf->block_release = true;
	c = revoke_test_alloc_closer(test, tf, NULL);
	closer = revoke_test_thread(test, revoke_test_closer_fn, c);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&tf->in_release));

	rv = revoke_test_start_revoke(test, obj, NULL);
	KUNIT_EXPECT_TRUE(test, revoke_test_wait_for_release_waiter(tf));
	complete(&tf->finish_release);

	revoke_test_finish_revoke(test, rv);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&c->done));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_PTR_EQ(test, tf->released_by, closer);
	KUNIT_EXPECT_LT(test, tf->release_seq, rv->done_seq);
	/* The close released it: the revoked table has nothing to undo */
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_releases), 0);
}

static void test_last_fput_waits_for_release_begun_by_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf =
		revoke_test_open(test, obj, &revoke_test_revoked_fops);
	struct revoke_test_revoker *rv;
	struct revoke_test_closer *c;

	tf->block_release = true;
	rv = revoke_test_start_revoke(test, obj, NULL);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&tf->in_release));

	c = revoke_test_alloc_closer(test, tf, NULL);
	revoke_test_thread(test, revoke_test_closer_fn, c);
	KUNIT_EXPECT_TRUE(test, revoke_test_wait_for_release_waiter(tf));
	complete(&tf->finish_release);

	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&c->done));
	revoke_test_finish_revoke(test, rv);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_PTR_EQ(test, tf->released_by, rv->task);
	KUNIT_EXPECT_LT(test, tf->release_seq, c->done_seq);
	/* The revoke released it: the close ends with the revoked ->release */
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->revoked_releases), 1);
}

static void test_close_racing_revoke_releases_file_once(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	unsigned int i, by_revoke = 0, by_close = 0, wrong = 0;

	for (i = 0; i < REVOKE_TEST_RACES && !wrong; i++) {
		struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
		struct revoke_test_revoker *rv = NULL;
		struct task_struct *closer;
		struct revoke_test_closer *c;
		struct completion *go;

		/* Not on the stack: the threads may outlive a failed test. */
		go = kunit_kzalloc(test, sizeof(*go), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, go);
		init_completion(go);
		c = revoke_test_alloc_closer(test, tf, go);
		c->when = i % REVOKE_TEST_CLOSE_WHEN_NR;
		/* Alternate which side is woken first. */
		if (i & 1)
			rv = revoke_test_start_revoke(test, obj, go);
		closer = revoke_test_thread(test, revoke_test_closer_fn, c);
		if (!rv)
			rv = revoke_test_start_revoke(test, obj, go);
		complete_all(go);
		KUNIT_ASSERT_TRUE(test, revoke_test_wait(&c->done));
		revoke_test_finish_revoke(test, rv);
		kunit_release_action(test, revoke_test_stop_thread, closer);

		if (atomic_read(&tf->releases) != 1)
			wrong++;
		else if (tf->released_by == rv->task)
			by_revoke++;
		else
			by_close++;
		kunit_release_action(test, revoke_test_revoker_stop, rv);
		revokable_rearm(&obj->revokable);
	}
	KUNIT_EXPECT_EQ(test, wrong, 0);
	kunit_info(test, "released by revoke_it() %u times, by fput() %u times\n",
		   by_revoke, by_close);
	/*
	 * Both sides must win some rounds, or the race was not run. A
	 * closer that goes at once, or once revoke_it() has begun, comes
	 * while revoke_it() waits for a grace period and releases the file
	 * itself; one that waits until revoke_it() releases files (every
	 * third round) nearly always finds the file taken.
	 */
	KUNIT_EXPECT_GT(test, by_revoke, 0);
	KUNIT_EXPECT_GT(test, by_close, 0);
}

/* Threads inside methods and kick() */

static void test_revoke_it_waits_for_threads_inside_methods(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_revoking rv;
	bool returned;

	revoke_test_begin_revoke(test, obj, &rv);
	/* Kicked, but the sitter stays until told: revoke_it() must wait. */
	returned = wait_for_completion_timeout(&rv.revoker->done,
					       REVOKE_TEST_QUIET);
	KUNIT_EXPECT_FALSE(test, returned);
	revoke_test_end_revoke(test, &rv);
	KUNIT_EXPECT_TRUE(test, rv.sitter->woken);
	KUNIT_EXPECT_LT(test, rv.sitter->left_seq, rv.revoker->done_seq);
}

static void
test_revoke_it_kicks_nobody_when_nobody_is_inside(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);

	revoke_test_open(test, obj, NULL);
	revoke_test_open(test, obj, NULL);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&obj->kicks), 0);
}

static void test_revoke_it_kicks_while_a_thread_is_inside(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 1, false);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_GE(test, atomic_read(&obj->kicks), 1);
	KUNIT_EXPECT_EQ(test, obj->inside_at_first_kick, 1);
	KUNIT_EXPECT_TRUE(test, s->woken);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(s->leaving));
}

static void test_revoke_it_kicks_again_a_late_sleeper(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 0, true);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_TRUE(test, s->woken);
	KUNIT_EXPECT_GE(test, atomic_read(&obj->kicks), 2);
}

static void test_revoke_it_kicks_until_threads_leave(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 3, false);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_TRUE(test, s->woken);
	KUNIT_EXPECT_GE(test, atomic_read(&obj->kicks), 3);
}

/*
 * revoke_begin() from inside a method of a file it cuts off: it returns,
 * the file and its sibling are cut off, and nothing is released until
 * revoke_it() has seen the caller leave.
 */
static void test_revoke_begin_cuts_off_without_waiting(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_file *sibling = revoke_test_open(test, obj, NULL);
	bool entered;

	entered = start_using(tf->file);
	KUNIT_ASSERT_TRUE(test, entered);
	revoke_begin(&obj->revokable);
	KUNIT_EXPECT_TRUE(test, revoke_pending());
	KUNIT_EXPECT_TRUE(test, file_is_revoked(sibling->file));
	KUNIT_EXPECT_FALSE(test, start_using(sibling->file));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sibling->releases), 0);
	stop_using(tf->file);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sibling->releases), 1);
}

/* Between revoke_begin() and revoke_it(), the kicks go on by themselves. */
static void test_revoke_begin_kicks_until_threads_leave(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 3, false);

	revoke_begin(&obj->revokable);
	KUNIT_EXPECT_TRUE(test, revoke_test_wait(&s->left));
	KUNIT_EXPECT_TRUE(test, s->woken);
	KUNIT_EXPECT_GE(test, atomic_read(&obj->kicks), 3);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
}

/**
 * struct revoke_test_hammer - threads that enter and leave methods nonstop
 * @files: the files they use
 * @inside: threads between start_using() and stop_using()
 * @revoked: revoke_it() has returned
 * @entered_after_revoke: entries that began after revoke_it() returned
 * @entered: threads that entered at least once
 * @refused: threads refused enough times after revoke_it() returned
 * @all_entered: completed when every thread has entered
 * @all_refused: completed when every thread has been refused enough
 */
struct revoke_test_hammer {
	struct revoke_test_file *files[2];
	atomic_t inside;
	bool revoked;
	atomic_t entered_after_revoke;
	atomic_t entered;
	atomic_t refused;
	struct completion all_entered;
	struct completion all_refused;
};

struct revoke_test_hammerer {
	struct revoke_test_hammer *h;
	struct file *file;
};

static int revoke_test_hammer_fn(void *data)
{
	struct revoke_test_hammerer *t = data;
	struct revoke_test_hammer *h = t->h;
	unsigned int entries = 0, refusals = 0;

	while (!kthread_should_stop()) {
		/* Pairs with the release once revoke_it() has returned. */
		bool after = smp_load_acquire(&h->revoked);

		if (start_using(t->file)) {
			atomic_inc(&h->inside);
			if (after)
				atomic_inc(&h->entered_after_revoke);
			/* Stay inside across a reschedule now and then. */
			cond_resched();
			atomic_dec(&h->inside);
			stop_using(t->file);
			if (++entries == 1 && atomic_inc_return(&h->entered) ==
					      REVOKE_TEST_HAMMERS)
				complete(&h->all_entered);
		} else if (after && ++refusals == REVOKE_TEST_HAMMER_REFUSALS) {
			if (atomic_inc_return(&h->refused) ==
			    REVOKE_TEST_HAMMERS)
				complete(&h->all_refused);
			break;
		}
		cond_resched();
	}
	return 0;
}

static void test_after_revoke_nobody_is_inside_or_enters(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_hammerer *t;
	struct revoke_test_hammer *h;
	int i;

	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	t = kunit_kcalloc(test, REVOKE_TEST_HAMMERS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	init_completion(&h->all_entered);
	init_completion(&h->all_refused);
	for (i = 0; i < ARRAY_SIZE(h->files); i++)
		h->files[i] = revoke_test_open(test, obj, NULL);
	for (i = 0; i < REVOKE_TEST_HAMMERS; i++) {
		t[i].h = h;
		t[i].file = h->files[i % ARRAY_SIZE(h->files)]->file;
		revoke_test_thread(test, revoke_test_hammer_fn, &t[i]);
	}
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&h->all_entered));

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->inside), 0);
	/* Pairs with the acquire before each try of the threads. */
	smp_store_release(&h->revoked, true);

	KUNIT_EXPECT_TRUE(test, revoke_test_wait(&h->all_refused));
	KUNIT_EXPECT_EQ(test, atomic_read(&h->entered_after_revoke), 0);
}

/* Scale */

struct revoke_test_many {
	struct revoke_test_file *files;
	unsigned int opened;
};

static void revoke_test_many_close(void *data)
{
	struct revoke_test_many *many = data;
	unsigned int i;

	for (i = 0; i < many->opened; i++)
		__fput_sync(many->files[i].file);
	kvfree(many->files);
}

static void test_revoke_it_releases_ten_thousand_files(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	unsigned int i, released = 0, revoked = 0;
	struct revoke_test_many *many;

	many = kunit_kzalloc(test, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many);
	many->files = kvcalloc(REVOKE_TEST_MANY_FILES, sizeof(*many->files),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many->files);
	revoke_test_defer(test, revoke_test_many_close, many);

	for (i = 0; i < REVOKE_TEST_MANY_FILES; i++) {
		struct revoke_test_file *tf = &many->files[i];
		struct file *file;

		revoke_test_file_init(tf, NULL);
		file = revoke_test_getfile(tf, &revoke_test_fops);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
		tf->file = file;
		many->opened++;
		KUNIT_ASSERT_EQ(test, make_revokable(file, &obj->revokable,
						     NULL), 0);
		cond_resched();
	}

	revoke_test_revoke(test, obj);
	for (i = 0; i < REVOKE_TEST_MANY_FILES; i++) {
		released += atomic_read(&many->files[i].releases) == 1;
		revoked += file_is_revoked(many->files[i].file);
	}
	KUNIT_EXPECT_EQ(test, released, REVOKE_TEST_MANY_FILES);
	KUNIT_EXPECT_EQ(test, revoked, REVOKE_TEST_MANY_FILES);
}

/* revoke_it_async() and revoke_it_killable() */

/* Waits for @tf to be released by someone else: a work, say. */
static bool revoke_test_wait_released(struct revoke_test_file *tf)
{
	unsigned long deadline = jiffies + REVOKE_TEST_WAIT;

	while (!atomic_read(&tf->releases)) {
		if (time_after(jiffies, deadline))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

static void test_revoke_it_async_releases_at_once_if_nobody_is_inside(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_it_async(&obj->revokable);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_PTR_EQ(test, tf->released_by, current);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
}

/*
 * A thread that stays inside does not hold revoke_it_async() up; the last
 * thread to leave has the file released, from a work, after it left.
 */
static void test_revoke_it_async_releases_when_the_last_thread_leaves(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 0, false);

	revoke_it_async(&obj->revokable);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
	KUNIT_EXPECT_FALSE(test, start_using(tf->file));
	KUNIT_EXPECT_GE(test, atomic_read(&obj->kicks), 1);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(s->leaving));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 0);

	complete(&s->leave);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&s->left));
	KUNIT_ASSERT_TRUE(test, revoke_test_wait_released(tf));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	KUNIT_EXPECT_GT(test, tf->release_seq, s->left_seq);
	KUNIT_EXPECT_PTR_NE(test, tf->released_by, current);
}

/*
 * The RFC's question 5: re-armed at once, the revokable takes new files
 * while a thread is still inside a method of an old one. That thread
 * still sees its revoke; a revoke of the new files waits for neither.
 */
static void test_rearm_after_revoke_it_async_does_not_wait_for_old_threads(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *old = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, old, 0, false);
	struct revoke_test_file *new;
	bool entered;

	revoke_it_async(&obj->revokable);
	revokable_rearm(&obj->revokable);
	KUNIT_EXPECT_FALSE(test, revokable_is_dying(&obj->revokable));
	new = revoke_test_open(test, obj, NULL);
	entered = start_using(new->file);
	KUNIT_EXPECT_TRUE(test, entered);
	if (entered)
		stop_using(new->file);
	KUNIT_EXPECT_FALSE(test, file_is_revoked(new->file));
	KUNIT_EXPECT_TRUE(test, file_is_revoked(old->file));

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&new->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&old->releases), 0);

	complete(&s->leave);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&s->left));
	KUNIT_EXPECT_TRUE(test, s->pending_at_leave);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait_released(old));
	KUNIT_EXPECT_EQ(test, atomic_read(&old->releases), 1);
}

/*
 * Killed while a thread stays inside, revoke_it_killable() returns -EINTR
 * with the file cut off, and the release comes when the thread leaves.
 */
static void test_revoke_it_killable_gives_up_when_killed(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_sitter *s = revoke_test_sit(test, tf, 0, false);
	struct revoke_test_revoker *rv;

	rv = __revoke_test_start_revoke(test, obj, NULL, true);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait(&obj->kicked));
	KUNIT_EXPECT_FALSE(test, completion_done(&rv->done));
	send_sig(SIGKILL, rv->task, 1);
	revoke_test_finish_revoke(test, rv);
	KUNIT_EXPECT_EQ(test, rv->ret, -EINTR);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(s->leaving));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 0);

	complete(&s->leave);
	KUNIT_ASSERT_TRUE(test, revoke_test_wait_released(tf));
	KUNIT_EXPECT_GT(test, tf->release_seq, s->left_seq);
}

/* revokable_rearm() */

static void test_rearm_lets_new_files_be_used(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf;
	bool entered;

	revoke_test_open(test, obj, NULL);
	revoke_test_revoke(test, obj);
	revokable_rearm(&obj->revokable);
	tf = revoke_test_open(test, obj, NULL);
	entered = start_using(tf->file);
	KUNIT_EXPECT_TRUE(test, entered);
	if (entered)
		stop_using(tf->file);
	KUNIT_EXPECT_FALSE(test, file_is_revoked(tf->file));
}

static void test_rearm_leaves_revoked_files_revoked(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	bool entered;

	revoke_test_revoke(test, obj);
	revokable_rearm(&obj->revokable);
	entered = start_using(tf->file);
	KUNIT_EXPECT_FALSE(test, entered);
	if (entered)
		stop_using(tf->file);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
}

static void test_rearmed_revokable_revokes_only_new_files(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *old = revoke_test_open(test, obj, NULL);
	struct revoke_test_file *new;

	revoke_test_revoke(test, obj);
	revokable_rearm(&obj->revokable);
	new = revoke_test_open(test, obj, NULL);
	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&old->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&new->releases), 1);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(new->file));
}

/**
 * struct revoke_test_rearm_race - a thread trying a file revoked and re-armed
 * @lock: held around each try, so that @tf changes only between tries
 * @tf: the file tried, or NULL
 * @rearmed: @tf's revokable was revoked and re-armed
 * @tries: tries on @tf since it was set
 * @entered_revoked: entries that began when @rearmed was already set
 * @entered_released: entries into a file that was already released
 * @entered: completed by the first entry into @tf
 * @refused: completed by the first refusal once @rearmed is set
 */
struct revoke_test_rearm_race {
	struct mutex lock;	/* @tf changes only between tries */
	struct revoke_test_file *tf;
	bool rearmed;
	unsigned long tries;
	atomic_t entered_revoked;
	atomic_t entered_released;
	struct completion entered;
	struct completion refused;
};

static int revoke_test_rearm_racer_fn(void *data)
{
	struct revoke_test_rearm_race *rr = data;

	while (!kthread_should_stop()) {
		mutex_lock(&rr->lock);
		if (rr->tf) {
			struct revoke_test_file *tf = rr->tf;
			bool rearmed = rr->rearmed;

			if (start_using(tf->file)) {
				if (atomic_read(&tf->releases))
					atomic_inc(&rr->entered_released);
				if (rearmed)
					atomic_inc(&rr->entered_revoked);
				stop_using(tf->file);
				if (!rr->tries)
					complete(&rr->entered);
			} else if (rearmed) {
				complete(&rr->refused);
			}
			rr->tries++;
		}
		mutex_unlock(&rr->lock);
		cond_resched();
	}
	return 0;
}

static void
test_start_using_racing_rearm_never_enters_revoked_file(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_rearm_race *rr;
	int i;

	rr = kunit_kzalloc(test, sizeof(*rr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rr);
	mutex_init(&rr->lock);
	init_completion(&rr->entered);
	init_completion(&rr->refused);
	revoke_test_thread(test, revoke_test_rearm_racer_fn, rr);

	for (i = 0; i < REVOKE_TEST_RACES; i++) {
		struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

		mutex_lock(&rr->lock);
		rr->tf = tf;
		rr->rearmed = false;
		rr->tries = 0;
		reinit_completion(&rr->entered);
		reinit_completion(&rr->refused);
		mutex_unlock(&rr->lock);
		KUNIT_ASSERT_TRUE(test, revoke_test_wait(&rr->entered));

		/* The racer keeps trying tf through both of these. */
		revoke_test_revoke(test, obj);
		revokable_rearm(&obj->revokable);

		mutex_lock(&rr->lock);
		rr->rearmed = true;
		mutex_unlock(&rr->lock);
		KUNIT_ASSERT_TRUE(test, revoke_test_wait(&rr->refused));

		mutex_lock(&rr->lock);
		rr->tf = NULL;
		mutex_unlock(&rr->lock);
		revoke_test_close(test, tf);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&rr->entered_revoked), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rr->entered_released), 0);
}

/* revokable_exit() and freeing the object */

static void test_revokable_exit_revokes_open_files(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf[2];
	bool entered;
	int i;

	for (i = 0; i < ARRAY_SIZE(tf); i++)
		tf[i] = revoke_test_open(test, obj, NULL);
	/* revokable_exit(), then kfree_rcu() */
	kunit_release_action(test, revoke_test_obj_destroy, obj);
	for (i = 0; i < ARRAY_SIZE(tf); i++) {
		tf[i]->obj = NULL;
		KUNIT_EXPECT_EQ(test, atomic_read(&tf[i]->releases), 1);
		entered = start_using(tf[i]->file);
		KUNIT_EXPECT_FALSE(test, entered);
		if (entered)
			stop_using(tf[i]->file);
	}
}

/*
 * A file opened on an object that its owner then tore down and freed, as
 * the contract says: revokable_exit(), then kfree_rcu(), here waited for
 * so that KASAN sees any later access to the object.
 */
static struct revoke_test_file *revoke_test_orphan(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	kunit_release_action(test, revoke_test_obj_destroy, obj);
	kvfree_rcu_barrier();
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
	/* A second ->release() must show as a count, not as a KASAN report. */
	tf->obj = NULL;
	return tf;
}

static void test_revoked_file_refuses_start_using_after_free(struct kunit *test)
{
	struct revoke_test_file *tf = revoke_test_orphan(test);
	bool entered = start_using(tf->file);

	KUNIT_EXPECT_FALSE(test, entered);
	if (entered)
		stop_using(tf->file);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
}

static void test_revoked_file_methods_after_free_fail(struct kunit *test)
{
	struct revoke_test_file *tf = revoke_test_orphan(test);
	char buf[8];
	loff_t pos = 0;

	KUNIT_EXPECT_EQ(test, kernel_read(tf->file, buf, sizeof(buf), &pos),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, kernel_write(tf->file, buf, sizeof(buf), &pos),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, vfs_ioctl(tf->file, 0, 0), -ENODEV);
	KUNIT_EXPECT_TRUE(test, vfs_poll(tf->file, NULL) == (EPOLLERR | EPOLLHUP));
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->live_calls), 0);
}

static void test_last_fput_after_free_does_not_release_again(struct kunit *test)
{
	struct revoke_test_file *tf = revoke_test_orphan(test);

	revoke_test_close(test, tf);
	KUNIT_EXPECT_EQ(test, atomic_read(&tf->releases), 1);
}

/* file_is_revoked() */

/* Only a thread inside a method of a file being revoked sees it. */
static void test_revoke_pending_inside_a_revoked_method(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	unsigned long deadline = jiffies + REVOKE_TEST_WAIT;
	struct revoke_test_revoker *rv;
	bool entered;

	KUNIT_EXPECT_FALSE(test, revoke_pending());
	entered = start_using(tf->file);
	KUNIT_ASSERT_TRUE(test, entered);
	KUNIT_EXPECT_FALSE(test, revoke_pending());
	/* revoke_it() waits for us: see it begin, then leave. */
	rv = revoke_test_start_revoke(test, obj, NULL);
	while (!revokable_is_dying(&obj->revokable) &&
	       time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);
	KUNIT_EXPECT_TRUE(test, revoke_pending());
	stop_using(tf->file);
	KUNIT_EXPECT_FALSE(test, revoke_pending());
	revoke_test_finish_revoke(test, rv);
}

static void test_file_is_revoked_false_while_live(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	KUNIT_EXPECT_FALSE(test, file_is_revoked(tf->file));
}

static void test_file_is_revoked_true_while_revoke_waits(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);
	struct revoke_test_revoking rv;

	revoke_test_begin_revoke(test, obj, &rv);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
	KUNIT_EXPECT_TRUE(test, file_is_revoked(rv.sitter->tf->file));
	revoke_test_end_revoke(test, &rv);
}

static void test_file_is_revoked_true_after_revoke(struct kunit *test)
{
	struct revoke_test_obj *obj = revoke_test_obj_create(test);
	struct revoke_test_file *tf = revoke_test_open(test, obj, NULL);

	revoke_test_revoke(test, obj);
	KUNIT_EXPECT_TRUE(test, file_is_revoked(tf->file));
}

static void test_file_is_revoked_false_for_unrevokable_file(struct kunit *test)
{
	struct revoke_test_file *tf = revoke_test_file_create(test, NULL);

	KUNIT_EXPECT_FALSE(test, file_is_revoked(tf->file));
}

static struct kunit_case revoke_test_cases[] = {
	KUNIT_CASE(test_start_using_succeeds_on_live_file),
	KUNIT_CASE(test_start_using_fails_after_revoke),
	KUNIT_CASE(test_start_using_fails_while_revoke_waits),
	KUNIT_CASE(test_start_using_succeeds_on_unrevokable_file),
	KUNIT_CASE(test_start_using_fops_returns_f_op_while_live),
	KUNIT_CASE(test_start_using_fops_returns_owner_table_after_revoke),
	KUNIT_CASE(test_start_using_fops_returns_core_table_after_revoke),
	KUNIT_CASE(test_vfs_read_while_live_calls_live_method),
	KUNIT_CASE(test_vfs_read_after_revoke_calls_owner_revoked_method),
	KUNIT_CASE(test_core_revoked_read_fails_with_enodev),
	KUNIT_CASE(test_core_revoked_write_fails_with_enodev),
	KUNIT_CASE(test_core_revoked_ioctl_fails_with_enodev),
	KUNIT_CASE(test_core_revoked_poll_reports_err_and_hup),
	KUNIT_CASE(test_make_revokable_fails_with_enodev_after_revoke),
	KUNIT_CASE(test_make_revokable_fails_with_enodev_while_revoke_waits),
	KUNIT_CASE(test_make_revokable_succeeds_after_rearm),
#ifdef CONFIG_REVOKE_KUNIT_TEST_WARN
	KUNIT_CASE(test_make_revokable_rejects_atomic_pos_file),
	KUNIT_CASE(test_make_revokable_rejects_f_op_with_lock),
	KUNIT_CASE(test_make_revokable_rejects_f_op_as_revoked_table),
#endif
	KUNIT_CASE(test_make_revokable_racing_revoke_is_refused_or_released),
	KUNIT_CASE(test_revoke_it_releases_each_file_once),
	KUNIT_CASE(test_last_fput_after_revoke_does_not_release_again),
	KUNIT_CASE(test_last_fput_of_live_file_releases_it_once),
	KUNIT_CASE(test_revoke_it_skips_files_already_closed),
	KUNIT_CASE(test_revoke_it_again_does_nothing),
	KUNIT_CASE(test_revoke_it_turns_fasync_off),
	KUNIT_CASE(test_last_fput_after_revoke_calls_no_live_fasync),
	KUNIT_CASE(test_last_fput_after_revoke_calls_revoked_release),
	KUNIT_CASE(test_close_before_revoke_calls_no_revoked_release),
	KUNIT_CASE(test_revoke_it_waits_for_release_begun_by_last_fput),
	KUNIT_CASE(test_last_fput_waits_for_release_begun_by_revoke),
	KUNIT_CASE_SLOW(test_close_racing_revoke_releases_file_once),
	KUNIT_CASE(test_revoke_it_waits_for_threads_inside_methods),
	KUNIT_CASE(test_revoke_it_kicks_nobody_when_nobody_is_inside),
	KUNIT_CASE(test_revoke_it_kicks_while_a_thread_is_inside),
	KUNIT_CASE(test_revoke_it_kicks_again_a_late_sleeper),
	KUNIT_CASE(test_revoke_it_kicks_until_threads_leave),
	KUNIT_CASE(test_revoke_begin_cuts_off_without_waiting),
	KUNIT_CASE(test_revoke_begin_kicks_until_threads_leave),
	KUNIT_CASE(test_after_revoke_nobody_is_inside_or_enters),
	KUNIT_CASE(test_revoke_it_releases_ten_thousand_files),
	KUNIT_CASE(test_revoke_it_async_releases_at_once_if_nobody_is_inside),
	KUNIT_CASE(test_revoke_it_async_releases_when_the_last_thread_leaves),
	KUNIT_CASE(test_rearm_after_revoke_it_async_does_not_wait_for_old_threads),
	KUNIT_CASE(test_revoke_it_killable_gives_up_when_killed),
	KUNIT_CASE(test_rearm_lets_new_files_be_used),
	KUNIT_CASE(test_rearm_leaves_revoked_files_revoked),
	KUNIT_CASE(test_rearmed_revokable_revokes_only_new_files),
	KUNIT_CASE_SLOW(test_start_using_racing_rearm_never_enters_revoked_file),
	KUNIT_CASE(test_revokable_exit_revokes_open_files),
	KUNIT_CASE(test_revoked_file_refuses_start_using_after_free),
	KUNIT_CASE(test_revoked_file_methods_after_free_fail),
	KUNIT_CASE(test_last_fput_after_free_does_not_release_again),
	KUNIT_CASE(test_revoke_pending_inside_a_revoked_method),
	KUNIT_CASE(test_file_is_revoked_false_while_live),
	KUNIT_CASE(test_file_is_revoked_true_while_revoke_waits),
	KUNIT_CASE(test_file_is_revoked_true_after_revoke),
	KUNIT_CASE(test_file_is_revoked_false_for_unrevokable_file),
	{}
};

static struct kunit_suite revoke_test_suite = {
	.name = "revoke",
	.test_cases = revoke_test_cases,
};

kunit_test_suite(revoke_test_suite);

MODULE_DESCRIPTION("KUnit tests for revoking open files");
MODULE_LICENSE("GPL");
