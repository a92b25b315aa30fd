// SPDX-License-Identifier: GPL-2.0
/*
 * A character device whose files can be revoked, for testing revoke
 * (<linux/revoke.h>) from userspace through every file method the VFS
 * guards.
 *
 * /dev/test_revoke is a small pipe-like byte buffer shared by every file
 * open on it: read blocks while it is empty, write while it is full
 * (O_NONBLOCK and IOCB_NOWAIT give -EAGAIN instead), poll reports IN and
 * OUT, FIONREAD says how many bytes can be read, data arriving raises
 * SIGIO for O_ASYNC files, splice goes through ->read_iter and
 * ->write_iter, lseek does nothing, and mmap maps one shared page.
 *
 * The buffer, its wait queue, that page and the revokable live in a
 * generation, which every new open joins. Writing anything to
 * /sys/kernel/debug/test_revoke/revoke ends the generation:
 * revoke_it_killable() cuts off and releases every file open on it; the
 * write fails with EINTR if the writer is killed while threads are still
 * inside. Writing to revoke_async ends it with revoke_it_async(), which
 * does not wait for them. Each file holds the generation: once the last
 * is released, wake_up_pollfree() makes poll(), select(), epoll, io_uring
 * and aio waiters still queued let go of its queue, and the generation is
 * freed RCU-deferred. The next open starts a new generation. The revoke
 * is never done through the device itself: revoke_it_killable() must not
 * run inside a method of a file it revokes.
 *
 * A revoked file gets the core's default table (make_revokable() with
 * NULL): read, write, ioctl, mmap and fasync fail with -ENODEV, poll
 * reports EPOLLERR | EPOLLHUP, lseek still does nothing; splice fails as
 * read and write do. A read or write still inside the driver when the
 * revoke comes (asleep, and woken by the kick, or about to start) fails
 * with -ENODEV too; an access to a page mapped before the revoke gets
 * SIGBUS. The ioctl _IO('R', 1) sleeps a minute where the kick does not
 * reach: the revoke interrupts it, and restarted, it fails with -ENODEV.
 * The ioctl _IO('R', 2) waits as long for revoke_pending() on a queue of
 * its own, which no kick wakes either: it answers the revoke itself, -EIO.
 * The ioctl _IO('R', 3) sleeps uninterruptibly, where neither the kick
 * nor the revoke's interruption reaches, until anything is written to
 * unstick (or 20 seconds have passed), then returns 0: the driver bug a
 * revoke must not wait on.
 *
 * /dev/test_revoke_plain is the same device without revoke, for
 * benchmarks. Writing Y to revoke_in_next_ioctl makes the next ioctl on
 * /dev/test_revoke revoke its own generation from inside the method, the
 * deadlock lockdep must report.
 *
 * Counters in the same debugfs directory: opens (files made revokable),
 * releases (->release() calls, which must end up equal to opens), kicks
 * (calls of the kick), stuck (threads in _IO('R', 3) now) and
 * fasync_left (generations that ended with a file's fasync entry still
 * queued, which must stay 0).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/revoke.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/wait.h>

#include <asm/ioctls.h>

/* Small, so that a test fills it with one write. */
#define TEST_REVOKE_BUF_SIZE	256

/*
 * An ioctl that sleeps interruptibly for a minute where no kick reaches,
 * as a driver's private wait whose condition ignores the revoke would:
 * the revoke has to interrupt it.
 */
#define TEST_REVOKE_SLEEP_UNKICKED	_IO('R', 0x01)
/* The same wait with a condition that sees the revoke. */
#define TEST_REVOKE_WAIT_UNKICKED	_IO('R', 0x02)
#define TEST_REVOKE_UNKICKED_MS		60000
/* Below the hung-task timeout of the test kernels, 30 s. */
#define TEST_REVOKE_SLEEP_STUCK		_IO('R', 0x03)
#define TEST_REVOKE_STUCK_MS		20000

/**
 * struct test_revoke_gen - what the files of one generation share
 * @revokable: cuts the files off when the generation ends
 * @ref: one per file of the generation, and one while it is current
 * @lock: protects @buf and @count
 * @wait: readers wait here for data, writers for room, pollers for both
 * @fasync: files that asked for SIGIO when data arrives
 * @page: the page that mmap maps
 * @count: bytes in @buf
 * @buf: the data, oldest first
 * @rcu: frees the generation after a grace period
 */
struct test_revoke_gen {
	struct revokable revokable;
	struct kref ref;
	struct mutex lock;		/* protects buf, count */
	wait_queue_head_t wait;
	struct fasync_struct *fasync;
	struct page *page;
	size_t count;
	u8 buf[TEST_REVOKE_BUF_SIZE];
	struct rcu_head rcu;
};

/* Protects test_revoke_current: an open joins it, a revoke ends it. */
static DEFINE_MUTEX(test_revoke_gen_lock);
static struct test_revoke_gen *test_revoke_current;

static atomic_t test_revoke_opens = ATOMIC_INIT(0);
static atomic_t test_revoke_releases = ATOMIC_INIT(0);
static atomic_t test_revoke_kicks = ATOMIC_INIT(0);
static atomic_t test_revoke_fasync_left = ATOMIC_INIT(0);
static atomic_t test_revoke_stuck = ATOMIC_INIT(0);
/* Bumped through debugfs: ends the uninterruptible sleeps. */
static atomic_t test_revoke_unstick_seq = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(test_revoke_stuck_wait);
/* Set through debugfs: the next ioctl revokes from inside the method. */
static bool test_revoke_in_ioctl;

static struct dentry *test_revoke_debugfs;

static bool test_revoke_dying(struct test_revoke_gen *gen)
{
	return revokable_is_dying(&gen->revokable);
}

/* Whether a read or write must fail with -EAGAIN instead of sleeping. */
static bool test_revoke_nowait(struct kiocb *iocb)
{
	return (iocb->ki_flags & IOCB_NOWAIT) ||
	       (iocb->ki_filp->f_flags & O_NONBLOCK);
}

static void test_revoke_kick(struct revokable *r)
{
	struct test_revoke_gen *gen =
		container_of(r, struct test_revoke_gen, revokable);

	atomic_inc(&test_revoke_kicks);
	wake_up_all(&gen->wait);
}

static struct test_revoke_gen *test_revoke_gen_create(void)
{
	struct test_revoke_gen *gen;
	int ret;

	gen = kzalloc(sizeof(*gen), GFP_KERNEL);
	if (!gen)
		return ERR_PTR(-ENOMEM);
	gen->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!gen->page) {
		ret = -ENOMEM;
		goto free_gen;
	}
	ret = revokable_init(&gen->revokable, test_revoke_kick);
	if (ret)
		goto free_page;
	kref_init(&gen->ref);
	mutex_init(&gen->lock);
	init_waitqueue_head(&gen->wait);
	return gen;

free_page:
	__free_page(gen->page);
free_gen:
	kfree(gen);
	return ERR_PTR(ret);
}

/* Free a generation once it is over and its last file is released. */
static void test_revoke_gen_free(struct kref *ref)
{
	struct test_revoke_gen *gen =
		container_of(ref, struct test_revoke_gen, ref);

	/* Every file was released, and had its fasync turned off first. */
	if (WARN_ONCE(gen->fasync, "fasync entry left after the revoke\n"))
		atomic_inc(&test_revoke_fasync_left);
	/* Pollers still queued must let go before the queue is freed. */
	revoke_wake_pollfree(&gen->wait);
	revokable_exit(&gen->revokable);
	/* Mappings were zapped; a page still pinned keeps its own count. */
	put_page(gen->page);
	kfree_rcu(gen, rcu);
}

/*
 * Revoke every file of @gen, if any, waiting for the threads inside
 * unless @async, and drop the generation's own hold on it.
 */
static int test_revoke_gen_end(struct test_revoke_gen *gen, bool async)
{
	int ret = 0;

	if (!gen)
		return 0;

	if (async)
		revoke_it_async(&gen->revokable);
	else
		ret = revoke_it_killable(&gen->revokable);
	/* What poll() finds now; files not released yet keep the queue. */
	if (async || ret)
		wake_up_poll(&gen->wait, EPOLLERR | EPOLLHUP);
	kref_put(&gen->ref, test_revoke_gen_free);
	return ret;
}

/* End the current generation: the next open starts a new one. */
static int test_revoke_end_generation(bool async)
{
	struct test_revoke_gen *gen;

	mutex_lock(&test_revoke_gen_lock);
	gen = test_revoke_current;
	test_revoke_current = NULL;
	mutex_unlock(&test_revoke_gen_lock);
	return test_revoke_gen_end(gen, async);
}

static int test_revoke_open(struct inode *inode, struct file *file)
{
	struct test_revoke_gen *gen;
	int ret;

	/* Holding the lock keeps the generation from ending under us. */
	mutex_lock(&test_revoke_gen_lock);
	gen = test_revoke_current;
	if (!gen) {
		gen = test_revoke_gen_create();
		if (IS_ERR(gen)) {
			ret = PTR_ERR(gen);
			goto unlock;
		}
		test_revoke_current = gen;
	}
	file->private_data = gen;
	file->f_mode |= FMODE_NOWAIT;
	kref_get(&gen->ref);
	/* Last: from here on the revoke may release the file at any time. */
	ret = make_revokable(file, &gen->revokable, NULL);
	if (ret)
		kref_put(&gen->ref, test_revoke_gen_free);
unlock:
	mutex_unlock(&test_revoke_gen_lock);
	if (!ret)
		atomic_inc(&test_revoke_opens);
	return ret;
}

/*
 * /dev/test_revoke_plain: the same device, but its files are not made
 * revokable and its one generation lasts as long as the module, so that
 * a benchmark can tell what revoke costs a method call.
 */
static struct test_revoke_gen *test_revoke_plain_gen;

static int test_revoke_plain_open(struct inode *inode, struct file *file)
{
	struct test_revoke_gen *gen;
	int ret = 0;

	mutex_lock(&test_revoke_gen_lock);
	if (!test_revoke_plain_gen) {
		gen = test_revoke_gen_create();
		if (IS_ERR(gen))
			ret = PTR_ERR(gen);
		else
			test_revoke_plain_gen = gen;
	}
	if (!ret) {
		file->private_data = test_revoke_plain_gen;
		file->f_mode |= FMODE_NOWAIT;
	}
	mutex_unlock(&test_revoke_gen_lock);
	return ret;
}

/* Called once per file, by the revoke or by the last fput(). */
static int test_revoke_release(struct inode *inode, struct file *file)
{
	struct test_revoke_gen *gen = file->private_data;

	atomic_inc(&test_revoke_releases);
	kref_put(&gen->ref, test_revoke_gen_free);
	return 0;
}

static bool test_revoke_has_data(struct test_revoke_gen *gen)
{
	return READ_ONCE(gen->count);
}

static bool test_revoke_has_room(struct test_revoke_gen *gen)
{
	return READ_ONCE(gen->count) < TEST_REVOKE_BUF_SIZE;
}

/*
 * Sleeps until @ready(@gen) holds, and returns 0 with gen->lock held; or
 * fails, unlocked: -ENODEV once the revoke has come, as the revoked table
 * does, -EAGAIN for a caller that must not sleep, or on a signal.
 */
static int test_revoke_wait_for(struct test_revoke_gen *gen,
				struct kiocb *iocb,
				bool (*ready)(struct test_revoke_gen *gen))
{
	int ret;

	mutex_lock(&gen->lock);
	while (!ready(gen) || test_revoke_dying(gen)) {
		mutex_unlock(&gen->lock);
		if (test_revoke_dying(gen))
			return -ENODEV;
		if (test_revoke_nowait(iocb))
			return -EAGAIN;
		/* The kick wakes us; checking the revokable covers an early one. */
		ret = wait_event_interruptible(gen->wait, ready(gen) ||
					       test_revoke_dying(gen));
		if (ret)
			return ret;
		mutex_lock(&gen->lock);
	}
	return 0;
}

static ssize_t test_revoke_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct test_revoke_gen *gen = iocb->ki_filp->private_data;
	size_t copied;
	int ret;

	if (!iov_iter_count(to))
		return 0;

	ret = test_revoke_wait_for(gen, iocb, test_revoke_has_data);
	if (ret)
		return ret;
	copied = copy_to_iter(gen->buf, gen->count, to);
	if (copied) {
		gen->count -= copied;
		memmove(gen->buf, gen->buf + copied, gen->count);
	}
	mutex_unlock(&gen->lock);
	if (!copied)
		return -EFAULT;

	wake_up_interruptible_poll(&gen->wait, EPOLLOUT | EPOLLWRNORM);
	return copied;
}

static ssize_t test_revoke_write_iter(struct kiocb *iocb,
				      struct iov_iter *from)
{
	struct test_revoke_gen *gen = iocb->ki_filp->private_data;
	size_t copied;
	int ret;

	if (!iov_iter_count(from))
		return 0;

	ret = test_revoke_wait_for(gen, iocb, test_revoke_has_room);
	if (ret)
		return ret;
	copied = copy_from_iter(gen->buf + gen->count,
				TEST_REVOKE_BUF_SIZE - gen->count, from);
	gen->count += copied;
	mutex_unlock(&gen->lock);
	if (!copied)
		return -EFAULT;

	wake_up_interruptible_poll(&gen->wait, EPOLLIN | EPOLLRDNORM);
	kill_fasync(&gen->fasync, SIGIO, POLL_IN);
	return copied;
}

static __poll_t test_revoke_poll(struct file *file, poll_table *wait)
{
	struct test_revoke_gen *gen = file->private_data;
	size_t count;
	__poll_t mask = 0;

	/* One queue: AIO poll takes only one per file. */
	poll_wait(file, &gen->wait, wait);
	count = READ_ONCE(gen->count);
	if (count)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (count < TEST_REVOKE_BUF_SIZE)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

/*
 * Only the revoke's interruption wakes this wait, and its condition sees
 * the revoke before the pending signal is looked at: the call returns
 * its own answer rather than being restarted.
 */
static long test_revoke_wait_unkicked(void)
{
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(unkicked);
	long left = msecs_to_jiffies(TEST_REVOKE_UNKICKED_MS);

	left = wait_event_interruptible_timeout(unkicked, revoke_pending(),
						left);
	if (revoke_pending())
		return -EIO;
	return left < 0 ? left : 0;
}

/* Where nothing but a write to debugfs ends the sleep: a driver bug. */
static long test_revoke_sleep_stuck(void)
{
	int seq = atomic_read(&test_revoke_unstick_seq);

	atomic_inc(&test_revoke_stuck);
	wait_event_timeout(test_revoke_stuck_wait,
			   atomic_read(&test_revoke_unstick_seq) != seq,
			   msecs_to_jiffies(TEST_REVOKE_STUCK_MS));
	atomic_dec(&test_revoke_stuck);
	return 0;
}

static long test_revoke_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct test_revoke_gen *gen = file->private_data;

	/*
	 * Breaks the one rule of revoke on purpose, when asked through
	 * debugfs, so that a test sees lockdep report it. This thread then
	 * waits for itself until it is killed.
	 */
	if (file->f_mode & FMODE_REVOKABLE &&
	    cmpxchg(&test_revoke_in_ioctl, true, false))
		return test_revoke_end_generation(false);

	switch (cmd) {
	case FIONREAD:
		return put_user((int)READ_ONCE(gen->count),
				(int __user *)arg);
	case TEST_REVOKE_SLEEP_UNKICKED:
		if (msleep_interruptible(TEST_REVOKE_UNKICKED_MS))
			return -ERESTARTSYS;
		return 0;
	case TEST_REVOKE_WAIT_UNKICKED:
		return test_revoke_wait_unkicked();
	case TEST_REVOKE_SLEEP_STUCK:
		return test_revoke_sleep_stuck();
	default:
		return -ENOTTY;
	}
}

static int test_revoke_fasync(int fd, struct file *file, int on)
{
	struct test_revoke_gen *gen = file->private_data;

	return fasync_helper(fd, file, on, &gen->fasync);
}

/*
 * The page goes into the page table here, while the file is in use:
 * returning it in vmf->page would let the fault map it after revoke_it()
 * zapped the mapping.
 */
static vm_fault_t test_revoke_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct file *file = vma->vm_file;
	struct test_revoke_gen *gen;
	vm_fault_t ret;
	int err;

	if (vmf->pgoff)
		return VM_FAULT_SIGBUS;
	/* A revoked file's generation may be freed: do not look at it. */
	if (!start_using(file))
		return VM_FAULT_SIGBUS;
	gen = file->private_data;
	err = vm_insert_page(vma, vmf->address, gen->page);
	/* -EBUSY: another thread mapped it first. */
	ret = err && err != -EBUSY ? vmf_error(err) : VM_FAULT_NOPAGE;
	stop_using(file);
	return ret;
}

static const struct vm_operations_struct test_revoke_vm_ops = {
	.fault = test_revoke_fault,
};

static int test_revoke_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff ||
	    vma_pages(vma) != 1)
		return -EINVAL;
	/* Mixed map: the fault can insert a normal page under mmap_lock. */
	vm_flags_set(vma, VM_MIXEDMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &test_revoke_vm_ops;
	return 0;
}

/* The two devices differ only in how their files open and close. */
#define TEST_REVOKE_FOPS(open_file, release_file) {			\
	.owner		= THIS_MODULE,					\
	.open		= open_file,					\
	.release	= release_file,					\
	.llseek		= noop_llseek,					\
	.read_iter	= test_revoke_read_iter,			\
	.write_iter	= test_revoke_write_iter,			\
	.splice_read	= copy_splice_read,				\
	.splice_write	= iter_file_splice_write,			\
	.poll		= test_revoke_poll,				\
	.unlocked_ioctl	= test_revoke_ioctl,				\
	.compat_ioctl	= compat_ptr_ioctl,				\
	.mmap		= test_revoke_mmap,				\
	.fasync		= test_revoke_fasync,				\
}

static const struct file_operations test_revoke_fops =
	TEST_REVOKE_FOPS(test_revoke_open, test_revoke_release);
static const struct file_operations test_revoke_plain_fops =
	TEST_REVOKE_FOPS(test_revoke_plain_open, NULL);

static struct miscdevice test_revoke_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "test_revoke",
	.fops	= &test_revoke_fops,
};

static struct miscdevice test_revoke_plain_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "test_revoke_plain",
	.fops	= &test_revoke_plain_fops,
};

static ssize_t test_revoke_debugfs_revoke(struct file *file,
					  const char __user *buf,
					  size_t count, loff_t *ppos)
{
	int ret = test_revoke_end_generation(false);

	return ret ? ret : count;
}

static ssize_t test_revoke_debugfs_revoke_async(struct file *file,
						const char __user *buf,
						size_t count, loff_t *ppos)
{
	test_revoke_end_generation(true);
	return count;
}

static ssize_t test_revoke_debugfs_unstick(struct file *file,
					   const char __user *buf,
					   size_t count, loff_t *ppos)
{
	atomic_inc(&test_revoke_unstick_seq);
	wake_up_all(&test_revoke_stuck_wait);
	return count;
}

#define TEST_REVOKE_DEBUGFS_FOPS(write_fn) {				\
	.owner	= THIS_MODULE,						\
	.open	= simple_open,						\
	.write	= write_fn,						\
	.llseek	= noop_llseek,						\
}

static const struct file_operations revoke_debugfs_fops =
	TEST_REVOKE_DEBUGFS_FOPS(test_revoke_debugfs_revoke);
static const struct file_operations revoke_async_debugfs_fops =
	TEST_REVOKE_DEBUGFS_FOPS(test_revoke_debugfs_revoke_async);
static const struct file_operations unstick_debugfs_fops =
	TEST_REVOKE_DEBUGFS_FOPS(test_revoke_debugfs_unstick);

static int __init test_revoke_init(void)
{
	int ret;

	test_revoke_debugfs = debugfs_create_dir("test_revoke", NULL);
	debugfs_create_file("revoke", 0200, test_revoke_debugfs, NULL,
			    &revoke_debugfs_fops);
	debugfs_create_file("revoke_async", 0200, test_revoke_debugfs, NULL,
			    &revoke_async_debugfs_fops);
	debugfs_create_file("unstick", 0200, test_revoke_debugfs, NULL,
			    &unstick_debugfs_fops);
	debugfs_create_atomic_t("stuck", 0444, test_revoke_debugfs,
				&test_revoke_stuck);
	debugfs_create_atomic_t("opens", 0444, test_revoke_debugfs,
				&test_revoke_opens);
	debugfs_create_atomic_t("releases", 0444, test_revoke_debugfs,
				&test_revoke_releases);
	debugfs_create_atomic_t("kicks", 0444, test_revoke_debugfs,
				&test_revoke_kicks);
	debugfs_create_atomic_t("fasync_left", 0444, test_revoke_debugfs,
				&test_revoke_fasync_left);
	debugfs_create_bool("revoke_in_next_ioctl", 0600, test_revoke_debugfs,
			    &test_revoke_in_ioctl);

	ret = misc_register(&test_revoke_misc);
	if (ret)
		goto remove_debugfs;
	ret = misc_register(&test_revoke_plain_misc);
	if (ret)
		goto deregister;
	return 0;

deregister:
	misc_deregister(&test_revoke_misc);
remove_debugfs:
	debugfs_remove_recursive(test_revoke_debugfs);
	return ret;
}

static void __exit test_revoke_exit(void)
{
	misc_deregister(&test_revoke_plain_misc);
	misc_deregister(&test_revoke_misc);
	debugfs_remove_recursive(test_revoke_debugfs);
	/* Every file is closed (they pin the module): just free them. */
	test_revoke_end_generation(false);
	test_revoke_gen_end(test_revoke_plain_gen, false);
}

module_init(test_revoke_init);
module_exit(test_revoke_exit);

MODULE_DESCRIPTION("Test device for revoking open files");
MODULE_LICENSE("GPL");
