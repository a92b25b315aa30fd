// SPDX-License-Identifier: GPL-2.0
/*
 * Revoking open files of an object that goes away: see <linux/revoke.h>
 * and Documentation/filesystems/revoke.rst.
 *
 * A revokable's users count is a percpu_ref holding one reference while
 * the revokable is live and one per thread inside a method; each thread
 * also marks, in its task_struct, the revokables whose methods it is
 * inside. revoke_begin() kills the count, waits until every CPU sees it
 * dead and, while it is not zero, has a work kick and interrupt the
 * marked threads asleep interruptibly. revoke_it() waits for the count to
 * reach zero, then releases the files one at a time under the same
 * handshake that the last fput() of each file uses, so that ->release()
 * runs once.
 */
#define pr_fmt(fmt) "revoke: " fmt

#include <linux/export.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/revoke.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

/* Kick again after this long, doubling up to a second. */
#define REVOKE_KICK_FIRST	msecs_to_jiffies(10)
#define REVOKE_KICK_MAX		HZ
/* Say so once when method callers take this many seconds to leave. */
#define REVOKE_SLOW_DRAIN_SECS	5

static struct kmem_cache *revoke_cachep __ro_after_init;

static void revoke_kick_work(struct work_struct *work);

static void revokable_drained(struct percpu_ref *users)
{
	struct revokable *r = container_of(users, struct revokable, users);

	complete(&r->drained);
}

static void revokable_confirmed(struct percpu_ref *users)
{
	struct revokable *r = container_of(users, struct revokable, users);

	/* The switch to atomic mode holds one reference until we return. */
	r->busy = atomic_long_read(&users->data->count) > 1;
	complete(&r->confirmed);
}

/* Keep in step with the table in Documentation/filesystems/revoke.rst. */
static ssize_t revoked_read_write(struct kiocb *iocb, struct iov_iter *iter)
{
	return -ENODEV;
}

static __poll_t revoked_poll(struct file *file, struct poll_table_struct *wait)
{
	return EPOLLERR | EPOLLHUP;
}

static long revoked_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	return -ENODEV;
}

static int revoked_mmap(struct file *file, struct vm_area_struct *vma)
{
	return -ENODEV;
}

static int revoked_fasync(int fd, struct file *file, int on)
{
	return -ENODEV;
}

static ssize_t revoked_splice_read(struct file *in, loff_t *ppos,
				   struct pipe_inode_info *pipe, size_t len,
				   unsigned int flags)
{
	return -ENODEV;
}

static ssize_t revoked_splice_write(struct pipe_inode_info *pipe,
				    struct file *out, loff_t *ppos,
				    size_t len, unsigned int flags)
{
	return -ENODEV;
}

/* What a revoked file does when its owner has no table of its own. */
static const struct file_operations revoked_default_fops = {
	.llseek		= noop_llseek,
	.read_iter	= revoked_read_write,
	.write_iter	= revoked_read_write,
	.poll		= revoked_poll,
	.unlocked_ioctl	= revoked_ioctl,
	.compat_ioctl	= revoked_ioctl,
	.mmap		= revoked_mmap,
	.fasync		= revoked_fasync,
	/* Else splice would say "not supported", -EINVAL. */
	.splice_read	= revoked_splice_read,
	.splice_write	= revoked_splice_write,
};

/*
 * The revokable of a live file; only for callers that hold a use or the
 * release handshake, so the pointer cannot change under them.
 */
static struct revokable *file_revokable(struct file *file)
{
	return rcu_dereference_protected(file->f_revoke->revokable, 1);
}

static void revoke_lockdep_enter(struct revokable *r)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	/* Recursive read: a method may use another file of the same class. */
	lock_acquire_shared_recursive(&r->dep_map, 0, 1, NULL, _RET_IP_);
#endif
}

static void revoke_lockdep_leave(struct revokable *r)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_release(&r->dep_map, _RET_IP_);
#endif
}

/**
 * __start_using - enter a method of a revokable file
 * @file: a file with FMODE_REVOKABLE
 *
 * Use start_using() instead.
 *
 * Return: true if the file is live and the caller is now inside.
 */
bool __start_using(struct file *file)
{
	struct revoke *revoke = file->f_revoke;
	unsigned int depth = current->revoke_depth;
	struct revokable *r;

	rcu_read_lock();
	r = rcu_dereference(revoke->revokable);
	if (unlikely(!r))
		goto revoked;
	/*
	 * Say where we are before we count in: revoke_it() looks for us
	 * once it has seen the count dead on every CPU, a grace period
	 * after any tryget that got in.
	 */
	if (depth < ARRAY_SIZE(current->revoke_inside))
		WRITE_ONCE(current->revoke_inside[depth], r);
	WRITE_ONCE(current->revoke_depth, depth + 1);
	if (unlikely(!percpu_ref_tryget_live_rcu(&r->users)))
		goto unmark;
	/*
	 * A revokable re-armed after this file was released is live again:
	 * look at the file's own link once more. The read of the percpu_ref
	 * above must come first, hence the barrier.
	 */
	smp_rmb();
	if (unlikely(!rcu_access_pointer(revoke->revokable))) {
		percpu_ref_put(&r->users);
		goto unmark;
	}
	rcu_read_unlock();
	revoke_lockdep_enter(r);
	return true;

unmark:
	WRITE_ONCE(current->revoke_depth, depth);
revoked:
	rcu_read_unlock();
	return false;
}
EXPORT_SYMBOL_GPL(__start_using);

/**
 * __stop_using - leave a method entered with __start_using()
 * @file: the file
 *
 * Use stop_using() instead.
 */
void __stop_using(struct file *file)
{
	struct revokable *r = file_revokable(file);

	revoke_lockdep_leave(r);
	WRITE_ONCE(current->revoke_depth, current->revoke_depth - 1);
	/*
	 * Before any later sleep of ours: revoke_interrupt_sleepers() must
	 * not take a sleep outside the method for one inside it.
	 */
	smp_wmb();
	percpu_ref_put(&r->users);
}
EXPORT_SYMBOL_GPL(__stop_using);

/**
 * __start_using_fops - enter a method of a revokable file, choosing its table
 * @file: a file with FMODE_REVOKABLE
 *
 * Use start_using_fops() instead.
 *
 * Return: @file->f_op if the caller is now inside, else the revoked table.
 */
const struct file_operations *__start_using_fops(struct file *file)
{
	if (__start_using(file))
		return file->f_op;
	return file->f_revoke->revoked_fops;
}
EXPORT_SYMBOL_GPL(__start_using_fops);

/**
 * revoke_pending - whether a revoke waits for the current method call
 *
 * For the condition of a wait inside a method of a revokable file, as
 * signal_pending() is for a signal: once a revoke of a file whose method
 * the current thread is inside has begun, the wait should end and the
 * method return its own answer to a revoke. Every wait inside a method
 * can use it, whether or not the owner's kick wakes its queue: the
 * revoke interrupts interruptible sleepers that the kick misses, and
 * such a wait then returns through its condition, not -ERESTARTSYS.
 *
 * Methods called from inside the methods of two other revokable files
 * are not seen: they nest deeper than the marks each task keeps.
 *
 * Return: true if the current thread is inside a method of a file whose
 * revokable is being revoked.
 */
bool revoke_pending(void)
{
	unsigned int depth = READ_ONCE(current->revoke_depth), i;

	depth = min_t(unsigned int, depth, ARRAY_SIZE(current->revoke_inside));
	for (i = 0; i < depth; i++)
		if (revokable_is_dying(current->revoke_inside[i]))
			return true;
	return false;
}
EXPORT_SYMBOL_GPL(revoke_pending);

/**
 * file_is_revoked - whether a file has been cut off from its object
 * @file: any file
 *
 * Return: true once revoke_it() has begun on the file's revokable, or
 * after it ended; false for a live file and for files that cannot be
 * revoked.
 */
bool file_is_revoked(struct file *file)
{
	struct revokable *r;
	bool revoked;

	if (!(file->f_mode & FMODE_REVOKABLE))
		return false;
	rcu_read_lock();
	r = rcu_dereference(file->f_revoke->revokable);
	revoked = !r || revokable_is_dying(r);
	rcu_read_unlock();
	return revoked;
}
EXPORT_SYMBOL_GPL(file_is_revoked);

/**
 * __revokable_init - prepare a revokable
 * @r: the revokable
 * @kick: wakes sleepers in methods, or NULL
 * @name: name of the lockdep classes
 * @users_key: lockdep class of being inside a method
 * @revoking_key: lockdep class of @r->revoking
 * @beginning_key: lockdep class of @r->beginning
 *
 * Use revokable_init() instead.
 *
 * Return: 0, or -ENOMEM.
 */
int __revokable_init(struct revokable *r, revoke_kick_t *kick,
		     const char *name, struct lock_class_key *users_key,
		     struct lock_class_key *revoking_key,
		     struct lock_class_key *beginning_key)
{
	int err;

	err = percpu_ref_init(&r->users, revokable_drained,
			      PERCPU_REF_ALLOW_REINIT, GFP_KERNEL);
	if (err)
		return err;
	init_completion(&r->confirmed);
	init_completion(&r->drained);
	r->kick = kick;
	spin_lock_init(&r->lock);
	INIT_HLIST_HEAD(&r->files);
	__mutex_init(&r->revoking, name, revoking_key);
	__mutex_init(&r->beginning, name, beginning_key);
	INIT_DELAYED_WORK(&r->kick_work, revoke_kick_work);
	r->dead = false;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lockdep_init_map(&r->dep_map, name, users_key, 0);
#endif
	return 0;
}
EXPORT_SYMBOL_GPL(__revokable_init);

/*
 * Methods that only filesystems implement, whose call sites the VFS does not
 * bracket with start_using(): a revokable file must not have them.
 */
static bool revoke_fops_guarded(const struct file_operations *fop)
{
#ifndef CONFIG_MMU
	/* Asked by mmap_prot() before do_mmap() brackets the mapping. */
	if (fop->mmap_capabilities)
		return false;
#endif
	return !fop->lock && !fop->flock && !fop->setlease && !fop->iopoll &&
	       !fop->uring_cmd_iopoll && !fop->copy_file_range &&
	       !fop->remap_file_range && !fop->fallocate;
}

/**
 * make_revokable - make a file being opened revokable
 * @file: the file, inside its ->open()
 * @r: the revokable of the object it opens
 * @revoked_fops: what the file's methods do once it is revoked, or NULL
 *	for a table that fails everything with -ENODEV and polls
 *	EPOLLERR | EPOLLHUP
 *
 * Must be the last thing ->open() does: from here on revoke_it() may call
 * ->release() on the file at any time, so ->open() must return 0 right
 * away and touch nothing of the file or the object. @revoked_fops must
 * not be @file->f_op, and @file->f_op must not change afterwards.
 *
 * Return: 0; -ENODEV while @r is being revoked or has been; -ENOMEM;
 * -EINVAL for a file that keeps an f_pos lock (regular files and
 * directories), has methods only filesystems have (->lock, ->flock,
 * ->setlease, ->iopoll, ->fallocate, ...), or a bad @revoked_fops.
 */
int make_revokable(struct file *file, struct revokable *r,
		   const struct file_operations *revoked_fops)
{
	struct revoke *revoke;

	if (!revoked_fops)
		revoked_fops = &revoked_default_fops;
	/* f_revoke shares its place with f_pos_lock. */
	if (WARN_ON_ONCE(file->f_mode & (FMODE_ATOMIC_POS | FMODE_REVOKABLE)) ||
	    WARN_ON_ONCE(revoked_fops == file->f_op) ||
	    WARN_ON_ONCE(!revoke_fops_guarded(file->f_op)))
		return -EINVAL;

	revoke = kmem_cache_zalloc(revoke_cachep, GFP_KERNEL);
	if (!revoke)
		return -ENOMEM;
	if (!percpu_ref_tryget_live(&r->users)) {
		kmem_cache_free(revoke_cachep, revoke);
		return -ENODEV;
	}
	revoke->file = file;
	revoke->revoked_fops = revoked_fops;
	RCU_INIT_POINTER(revoke->revokable, r);
	file->f_revoke = revoke;
	file->f_mode |= FMODE_REVOKABLE;

	spin_lock(&r->lock);
	hlist_add_head(&revoke->node, &r->files);
	spin_unlock(&r->lock);
	/* The file is now revoke_it()'s to release: no more touching it. */
	percpu_ref_put(&r->users);
	return 0;
}
EXPORT_SYMBOL_GPL(make_revokable);

/*
 * Zap every mapping of @file, so that a later access faults and the
 * owner's ->fault() (which must use start_using()) refuses it. Private
 * copies made by COW belong to the process and stay. Without an MMU a
 * mapping is the memory itself: it stays until munmap(), and the owner
 * keeps that memory until the VMA's ->close().
 */
static void revoke_unmap(struct file *file)
{
	struct address_space *mapping = file->f_mapping;
	struct zap_details details = { .even_cows = false };
	struct vm_area_struct *vma;

	if (!IS_ENABLED(CONFIG_MMU) || !mapping || !mapping_mapped(mapping))
		return;
	i_mmap_lock_read(mapping);
	vma_interval_tree_foreach(vma, &mapping->i_mmap, 0, ULONG_MAX) {
		if (vma->vm_file == file)
			zap_page_range_single(vma, vma->vm_start,
					      vma->vm_end - vma->vm_start,
					      &details);
	}
	i_mmap_unlock_read(mapping);
}

/*
 * Release the file of @revoke once. Called with @r->lock held, which it
 * drops. If the other side is releasing, wait until it is done.
 */
static void revoke_release_one(struct revokable *r, struct revoke *revoke,
			       bool by_revoke)
	__releases(&r->lock)
{
	struct file *file = revoke->file;
	struct completion *waiter;

	if (revoke->releasing) {
		DECLARE_COMPLETION_ONSTACK(released);

		revoke->released = &released;
		spin_unlock(&r->lock);
		wait_for_completion(&released);
		return;
	}
	revoke->releasing = true;
	spin_unlock(&r->lock);

	/* Do for the file what its last fput() would have done. */
	if (by_revoke)
		revoke_unmap(file);
	/*
	 * Not only for revoke_it(): a last fput() that met the revoke got
	 * the revoked ->fasync(), which left the entry queued.
	 */
	if (file->f_flags & FASYNC && file->f_op->fasync)
		file->f_op->fasync(-1, file, 0);
	if (file->f_op->release)
		file->f_op->release(file_inode(file), file);

	spin_lock(&r->lock);
	hlist_del_init(&revoke->node);
	/*
	 * A last fput() that sees ->revokable NULL frees @revoke without
	 * taking r->lock: read ->released before clearing it.
	 */
	waiter = revoke->released;
	rcu_assign_pointer(revoke->revokable, NULL);
	if (waiter)
		complete(waiter);
	spin_unlock(&r->lock);
}

/**
 * release_revoke - release a revokable file at its last fput()
 * @file: a file with FMODE_REVOKABLE
 *
 * Called by __fput() in place of ->release(). Calls ->release() unless
 * revoke_it() did, waiting for it if it is doing so right now.
 */
void release_revoke(struct file *file)
{
	struct revoke *revoke = file->f_revoke;
	struct revokable *r;

	rcu_read_lock();
	r = rcu_dereference(revoke->revokable);
	if (r) {
		spin_lock(&r->lock);
		/* revoke_it() clears ->revokable under r->lock, then drops it. */
		if (rcu_access_pointer(revoke->revokable)) {
			rcu_read_unlock();
			revoke_release_one(r, revoke, false);
		} else {
			spin_unlock(&r->lock);
			rcu_read_unlock();
		}
	} else {
		rcu_read_unlock();
	}
	kmem_cache_free(revoke_cachep, revoke);
}

/* Is @t, a thread we may signal, inside a method of a file of @r? */
static bool revoke_task_inside(struct task_struct *t, struct revokable *r)
{
	unsigned int depth = READ_ONCE(t->revoke_depth), i;

	depth = min_t(unsigned int, depth, ARRAY_SIZE(t->revoke_inside));
	for (i = 0; i < depth; i++)
		if (READ_ONCE(t->revoke_inside[i]) == r)
			return true;
	return false;
}

/*
 * Make signal_pending() true for every thread asleep interruptibly inside
 * a method of a file of @r: the wait returns -ERESTARTSYS (or -EINTR) and
 * the call, restarted, meets the revoked table. This ends the sleeps that
 * no kick reaches: a driver's private wait queue, a wait whose condition
 * ignores the revoke, and a page fault inside copy_to_user() or
 * copy_from_user() that waits interruptibly for its page (a userfaultfd):
 * fault_signal_pending() lets the copy fail.
 *
 * Only a thread seen asleep interruptibly is signalled, and its marks are
 * read after its state: a thread that has left the method cleared its
 * mark before it went to sleep elsewhere (see __stop_using()), so an
 * epoll_wait() or a pipe read after the method never gets a spurious
 * EINTR. Kernel threads never return to user space to clear the signal,
 * and are left alone.
 */
static void revoke_interrupt_sleepers(struct revokable *r)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (t->flags & PF_KTHREAD ||
		    !(READ_ONCE(t->__state) & TASK_INTERRUPTIBLE))
			continue;
		/* Its state before its marks: see __stop_using()'s smp_wmb() */
		smp_rmb();
		if (revoke_task_inside(t, r))
			set_notify_signal(t);
	}
	rcu_read_unlock();
}

/* Name each thread still inside a method of @r, with its stack. */
static void revoke_report_stuck(struct revokable *r)
{
	struct task_struct *g, *t;

	pr_warn("%ps: method callers still inside after %ds\n", r->kick,
		REVOKE_SLOW_DRAIN_SECS);
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (revoke_task_inside(t, r))
			sched_show_task(t);
	}
	rcu_read_unlock();
}

/*
 * Kick again, and interrupt the interruptible sleepers that the kick did
 * not reach, while threads are inside methods: from revoke_begin() until
 * revoke_it() has seen the last one leave, doubling the wait up to a
 * second.
 */
static void revoke_kick_work(struct work_struct *work)
{
	struct revokable *r = container_of(to_delayed_work(work),
					   struct revokable, kick_work);

	if (completion_done(&r->drained))
		return;
	revoke_interrupt_sleepers(r);
	if (!r->stuck_reported &&
	    time_after(jiffies, r->kick_since + REVOKE_SLOW_DRAIN_SECS * HZ)) {
		/* Neither reaches a sleeper: a driver bug. */
		revoke_report_stuck(r);
		r->stuck_reported = true;
	}
	if (r->kick)
		r->kick(r);
	r->kick_wait = min(r->kick_wait * 2, (unsigned long)REVOKE_KICK_MAX);
	schedule_delayed_work(&r->kick_work, r->kick_wait);
}

/* revoke_begin() with @r->beginning held. */
static void __revoke_begin(struct revokable *r)
{
	lockdep_assert_held(&r->beginning);
	if (r->dead || revokable_is_dying(r))
		return;
	reinit_completion(&r->confirmed);
	reinit_completion(&r->drained);
	percpu_ref_kill_and_confirm(&r->users, revokable_confirmed);
	wait_for_completion(&r->confirmed);
	if (!r->busy)
		return;
	r->kick_since = jiffies;
	r->kick_wait = REVOKE_KICK_FIRST;
	r->stuck_reported = false;
	if (r->kick)
		r->kick(r);
	schedule_delayed_work(&r->kick_work, r->kick_wait);
}

/**
 * revoke_begin - cut off every file open on a revokable, without waiting
 * @r: the revokable
 *
 * The first half of revoke_it(), for an owner that must take its object
 * down before it can wait for the threads inside the methods of its
 * files: a tty's hangup takes the line discipline down, which waits for
 * its readers and writers. When it returns, start_using() on any file of
 * @r fails, make_revokable() on @r fails with -ENODEV, revoke_pending()
 * is true inside the methods of those files, and while threads are inside
 * them @r->kick has run and runs again, and those asleep interruptibly
 * are interrupted, until revoke_it() has waited for the last to leave.
 *
 * It waits for no thread inside a method, so it may be called from a
 * method of a file of @r, and with locks that such a method takes held
 * (not the locks that @r->kick takes). The owner must call revoke_it()
 * later, which finishes the revoke. Does nothing if @r is already cut
 * off.
 *
 * Context: Process context; sleeps for an RCU grace period.
 */
void revoke_begin(struct revokable *r)
{
	might_sleep();
	mutex_lock(&r->beginning);
	__revoke_begin(r);
	mutex_unlock(&r->beginning);
}
EXPORT_SYMBOL_GPL(revoke_begin);

/**
 * revoke_it - revoke every file open on a revokable
 * @r: the revokable
 *
 * From the start of the call (or of revoke_begin(), if the owner called it
 * first), start_using() on any file of @r fails and make_revokable() on
 * @r fails with -ENODEV. While threads are inside methods of those files,
 * calls @r->kick, interrupts those asleep interruptibly (signal_pending()
 * becomes true for them, see revoke_kick_t) and waits for them to leave;
 * then calls ->release() of each file that its last fput() has not
 * released yet, after zapping its mappings and turning its fasync off.
 *
 * When it returns no thread is inside a method of any file of @r and
 * none will enter one: the owner may tear its object down, or bring it
 * back with revokable_rearm(). Does nothing if @r is already revoked.
 *
 * Context: Process context; sleeps. Never from a method of a file of @r,
 * nor holding a lock that such a method takes.
 */
void revoke_it(struct revokable *r)
{
	might_sleep();
	mutex_lock(&r->revoking);
	if (r->dead)
		goto out;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquire_exclusive(&r->dep_map, 0, 0, NULL, _RET_IP_);
#endif
	revoke_begin(r);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	if (!completion_done(&r->drained))
		lock_contended(&r->dep_map, _RET_IP_);
#endif
	wait_for_completion(&r->drained);
	cancel_delayed_work_sync(&r->kick_work);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquired(&r->dep_map, _RET_IP_);
	lock_release(&r->dep_map, _RET_IP_);
#endif
	mutex_lock(&r->beginning);
	r->dead = true;
	mutex_unlock(&r->beginning);

	spin_lock(&r->lock);
	while (!hlist_empty(&r->files)) {
		revoke_release_one(r, hlist_entry(r->files.first,
						  struct revoke, node), true);
		cond_resched();
		spin_lock(&r->lock);
	}
	spin_unlock(&r->lock);
out:
	mutex_unlock(&r->revoking);
}
EXPORT_SYMBOL_GPL(revoke_it);

/**
 * revokable_rearm - bring a revoked revokable back into service
 * @r: the revokable, after revoke_it()
 *
 * New files may be opened on @r again; the files revoke_it() revoked stay
 * revoked. A tty reopened after its hangup is the model user.
 */
void revokable_rearm(struct revokable *r)
{
	mutex_lock(&r->revoking);
	mutex_lock(&r->beginning);
	if (!WARN_ON_ONCE(!r->dead)) {
		percpu_ref_reinit(&r->users);
		r->dead = false;
	}
	mutex_unlock(&r->beginning);
	mutex_unlock(&r->revoking);
}
EXPORT_SYMBOL_GPL(revokable_rearm);

/**
 * revokable_exit - tear a revokable down
 * @r: the revokable
 *
 * Revokes what is still open, then frees what revokable_init() allocated.
 * The object that embeds @r must then be freed RCU-deferred.
 */
void revokable_exit(struct revokable *r)
{
	revoke_it(r);
	percpu_ref_exit(&r->users);
}
EXPORT_SYMBOL_GPL(revokable_exit);

static int __init revoke_init(void)
{
	revoke_cachep = KMEM_CACHE(revoke, SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
fs_initcall(revoke_init);
