// SPDX-License-Identifier: GPL-2.0
/*
 * Revoking open files of an object that goes away: see <linux/revoke.h>
 * and Documentation/filesystems/revoke.rst.
 *
 * The files opened on a revokable between two revokes form a generation,
 * allocated by the first open. Its users count is a percpu_ref holding one
 * reference while the generation is live and one per thread inside a
 * method; each thread also marks, in its task_struct, the generations
 * whose methods it is inside. revoke_begin() kills the count, waits until
 * every CPU sees it dead and, while it is not zero, has a work kick and
 * interrupt the marked threads asleep interruptibly. The revoke then takes
 * the generation off the revokable, and once the count reaches zero (at
 * once for revoke_it(), which waits for it; from the last thread to leave
 * for revoke_it_async(), through a work) its files are released one at a
 * time under the same handshake that the last fput() of each file uses,
 * so that ->release() runs once. The generation is freed RCU-deferred.
 */
#define pr_fmt(fmt) "revoke: " fmt

#include <linux/export.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/percpu-refcount.h>
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

/**
 * struct revoke_gen - the files opened on a revokable between two revokes
 * @users: threads inside methods of the files, plus one while live
 * @owner: the revokable it was opened on; not looked at once drained
 * @lock: protects @files and the release handshake of each file
 * @files: the struct revoke of every file not released yet
 * @confirmed: @users seen dead by every CPU
 * @drained: @users reached zero
 * @release_waits: what the release waits for, the drain and the revoke's
 *	end; whoever comes last releases the files
 * @busy: someone was inside a method when the kill was confirmed
 * @stuck_reported: the threads that do not leave have been named
 * @kick_since: when the first kick ran
 * @kick_wait: how long @kick_work waits next
 * @kick_work: kicks and interrupts again while threads are inside
 * @release_work: releases the files for the last thread to leave
 * @rcu: frees the generation once start_using() cannot see it
 */
struct revoke_gen {
	struct percpu_ref users;
	struct revokable *owner;
	spinlock_t lock;		/* protects files, each ->releasing */
	struct hlist_head files;
	struct completion confirmed;
	struct completion drained;
	atomic_t release_waits;
	bool busy;
	bool stuck_reported;
	unsigned long kick_since;
	unsigned long kick_wait;
	struct delayed_work kick_work;
	struct work_struct release_work;
	struct rcu_head rcu;
};

static struct kmem_cache *revoke_cachep __ro_after_init;

static void revoke_gen_drained(struct percpu_ref *users)
{
	struct revoke_gen *g = container_of(users, struct revoke_gen, users);

	/* Under RCU: the generation is not freed before we return. */
	complete(&g->drained);
	if (atomic_dec_and_test(&g->release_waits))
		queue_work(system_wq, &g->release_work);
}

static void revoke_gen_confirmed(struct percpu_ref *users)
{
	struct revoke_gen *g = container_of(users, struct revoke_gen, users);

	/* The switch to atomic mode holds one reference until we return. */
	g->busy = atomic_long_read(&users->data->count) > 1;
	complete(&g->confirmed);
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
 * The generation of a live file; only for callers that hold a use or the
 * release handshake, so the pointer cannot change under them.
 */
static struct revoke_gen *file_gen(struct file *file)
{
	return rcu_dereference_protected(file->f_revoke->gen, 1);
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
	struct revoke_gen *g;

	rcu_read_lock();
	g = rcu_dereference(revoke->gen);
	if (unlikely(!g))
		goto revoked;
	/*
	 * Say where we are before we count in: the revoke looks for us
	 * once it has seen the count dead on every CPU, a grace period
	 * after any tryget that got in.
	 */
	if (depth < ARRAY_SIZE(current->revoke_inside))
		WRITE_ONCE(current->revoke_inside[depth], g);
	WRITE_ONCE(current->revoke_depth, depth + 1);
	/* A generation, once dead, never comes back. */
	if (unlikely(!percpu_ref_tryget_live_rcu(&g->users)))
		goto unmark;
	rcu_read_unlock();
	revoke_lockdep_enter(g->owner);
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
	struct revoke_gen *g = file_gen(file);

	revoke_lockdep_leave(g->owner);
	WRITE_ONCE(current->revoke_depth, current->revoke_depth - 1);
	/*
	 * Before any later sleep of ours: revoke_interrupt_sleepers() must
	 * not take a sleep outside the method for one inside it.
	 */
	smp_wmb();
	/* The last one out may release the files, and free @g. */
	percpu_ref_put(&g->users);
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
 * revokable is being revoked, or was revoked and has been re-armed since.
 */
bool revoke_pending(void)
{
	unsigned int depth = READ_ONCE(current->revoke_depth), i;

	depth = min_t(unsigned int, depth, ARRAY_SIZE(current->revoke_inside));
	for (i = 0; i < depth; i++)
		if (percpu_ref_is_dying(&current->revoke_inside[i]->users))
			return true;
	return false;
}
EXPORT_SYMBOL_GPL(revoke_pending);

/**
 * file_is_revoked - whether a file has been cut off from its object
 * @file: any file
 *
 * Return: true once a revoke of the file has begun, or after it ended;
 * false for a live file and for files that cannot be revoked.
 */
bool file_is_revoked(struct file *file)
{
	struct revoke_gen *g;
	bool revoked;

	if (!(file->f_mode & FMODE_REVOKABLE))
		return false;
	rcu_read_lock();
	g = rcu_dereference(file->f_revoke->gen);
	revoked = !g || percpu_ref_is_dying(&g->users);
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
 * Return: 0. The first open allocates what the files need.
 */
int __revokable_init(struct revokable *r, revoke_kick_t *kick,
		     const char *name, struct lock_class_key *users_key,
		     struct lock_class_key *revoking_key,
		     struct lock_class_key *beginning_key)
{
	RCU_INIT_POINTER(r->cur, NULL);
	r->kick = kick;
	spin_lock_init(&r->lock);
	r->cut_off = false;
	r->dead = false;
	__mutex_init(&r->revoking, name, revoking_key);
	__mutex_init(&r->beginning, name, beginning_key);
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

static void revoke_kick_work(struct work_struct *work);
static void revoke_release_work(struct work_struct *work);

static struct revoke_gen *revoke_gen_alloc(struct revokable *r)
{
	struct revoke_gen *g;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	if (percpu_ref_init(&g->users, revoke_gen_drained, 0, GFP_KERNEL)) {
		kfree(g);
		return NULL;
	}
	g->owner = r;
	spin_lock_init(&g->lock);
	INIT_HLIST_HEAD(&g->files);
	init_completion(&g->confirmed);
	init_completion(&g->drained);
	atomic_set(&g->release_waits, 2);
	INIT_DELAYED_WORK(&g->kick_work, revoke_kick_work);
	INIT_WORK(&g->release_work, revoke_release_work);
	return g;
}

static void revoke_gen_free(struct revoke_gen *g)
{
	percpu_ref_exit(&g->users);
	kfree(g);
}

static void revoke_gen_free_rcu(struct rcu_head *rcu)
{
	revoke_gen_free(container_of(rcu, struct revoke_gen, rcu));
}

/*
 * The live generation of @r with one use held, the first open after
 * revokable_init() or revokable_rearm() making it; an error pointer if
 * @r is cut off, or for want of memory.
 */
static struct revoke_gen *revoke_get_gen(struct revokable *r)
{
	struct revoke_gen *g, *new = NULL;

	for (;;) {
		rcu_read_lock();
		g = rcu_dereference(r->cur);
		if (g && percpu_ref_tryget_live_rcu(&g->users)) {
			rcu_read_unlock();
			break;
		}
		rcu_read_unlock();
		if (g || READ_ONCE(r->cut_off)) {
			g = ERR_PTR(-ENODEV);
			break;
		}
		if (!new) {
			new = revoke_gen_alloc(r);
			if (!new)
				return ERR_PTR(-ENOMEM);
			continue;
		}
		spin_lock(&r->lock);
		if (!r->cut_off && !rcu_access_pointer(r->cur)) {
			/* No revoke can kill it before we have our use. */
			percpu_ref_get(&new->users);
			rcu_assign_pointer(r->cur, new);
			g = new;
			new = NULL;
		}
		spin_unlock(&r->lock);
		if (g)
			break;
	}
	if (new)
		revoke_gen_free(new);
	return g;
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
	struct revoke_gen *g;

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
	g = revoke_get_gen(r);
	if (IS_ERR(g)) {
		kmem_cache_free(revoke_cachep, revoke);
		return PTR_ERR(g);
	}
	revoke->file = file;
	revoke->revoked_fops = revoked_fops;
	RCU_INIT_POINTER(revoke->gen, g);
	file->f_revoke = revoke;
	file->f_mode |= FMODE_REVOKABLE;

	spin_lock(&g->lock);
	hlist_add_head(&revoke->node, &g->files);
	spin_unlock(&g->lock);
	/* The file is now the revoke's to release: no more touching it. */
	percpu_ref_put(&g->users);
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
 * Release the file of @revoke once. Called with @g->lock held, which it
 * drops. If the other side is releasing, wait until it is done.
 *
 * Return: whether this call released the file.
 */
static bool revoke_release_one(struct revoke_gen *g, struct revoke *revoke,
			       bool by_revoke)
	__releases(&g->lock)
{
	struct file *file = revoke->file;
	struct completion *waiter;

	if (revoke->releasing) {
		DECLARE_COMPLETION_ONSTACK(released);

		revoke->released = &released;
		spin_unlock(&g->lock);
		wait_for_completion(&released);
		return false;
	}
	revoke->releasing = true;
	spin_unlock(&g->lock);

	/* Do for the file what its last fput() would have done. */
	if (by_revoke)
		revoke_unmap(file);
	/*
	 * Not only for the revoke: a last fput() that met the revoke got
	 * the revoked ->fasync(), which left the entry queued.
	 */
	if (file->f_flags & FASYNC && file->f_op->fasync)
		file->f_op->fasync(-1, file, 0);
	if (file->f_op->release)
		file->f_op->release(file_inode(file), file);

	spin_lock(&g->lock);
	hlist_del_init(&revoke->node);
	/*
	 * A last fput() that sees ->gen NULL frees @revoke without taking
	 * g->lock: read ->released before clearing it.
	 */
	waiter = revoke->released;
	rcu_assign_pointer(revoke->gen, NULL);
	if (waiter)
		complete(waiter);
	spin_unlock(&g->lock);
	return true;
}

/**
 * release_revoke - release a revokable file at its last fput()
 * @file: a file with FMODE_REVOKABLE
 *
 * Called by __fput() in place of ->release(). Calls ->release() unless
 * the revoke did, waiting for it if it is doing so right now. If the
 * revoke did, calls the revoked table's ->release(), if it has one: an
 * owner that keeps something of a revoked file until its close (a tty
 * keeps a hung up file counted, as 6.12 did) lets go of it there.
 */
void release_revoke(struct file *file)
{
	const struct file_operations *revoked_fops;
	struct revoke *revoke = file->f_revoke;
	bool by_revoke = true;
	struct revoke_gen *g;

	rcu_read_lock();
	g = rcu_dereference(revoke->gen);
	if (g) {
		spin_lock(&g->lock);
		/* The revoke clears ->gen under g->lock, then drops it. */
		if (rcu_access_pointer(revoke->gen)) {
			rcu_read_unlock();
			by_revoke = !revoke_release_one(g, revoke, false);
		} else {
			spin_unlock(&g->lock);
			rcu_read_unlock();
		}
	} else {
		rcu_read_unlock();
	}
	revoked_fops = revoke->revoked_fops;
	kmem_cache_free(revoke_cachep, revoke);
	if (by_revoke && revoked_fops->release)
		revoked_fops->release(file_inode(file), file);
}

/* Is @t, a thread we may signal, inside a method of a file of @g? */
static bool revoke_task_inside(struct task_struct *t, struct revoke_gen *g)
{
	unsigned int depth = READ_ONCE(t->revoke_depth), i;

	depth = min_t(unsigned int, depth, ARRAY_SIZE(t->revoke_inside));
	for (i = 0; i < depth; i++)
		if (READ_ONCE(t->revoke_inside[i]) == g)
			return true;
	return false;
}

/*
 * Make signal_pending() true for every thread asleep interruptibly inside
 * a method of a file of @g: the wait returns -ERESTARTSYS (or -EINTR) and
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
 * EINTR; nor does a thread inside a method of a newer generation of the
 * same revokable. Kernel threads never return to user space to clear the
 * signal, and are left alone.
 */
static void revoke_interrupt_sleepers(struct revoke_gen *g)
{
	struct task_struct *p, *t;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (t->flags & PF_KTHREAD ||
		    !(READ_ONCE(t->__state) & TASK_INTERRUPTIBLE))
			continue;
		/* Its state before its marks: see __stop_using()'s smp_wmb() */
		smp_rmb();
		if (revoke_task_inside(t, g))
			set_notify_signal(t);
	}
	rcu_read_unlock();
}

/* Name each thread still inside a method of @g, with its stack. */
static void revoke_report_stuck(struct revoke_gen *g)
{
	struct task_struct *p, *t;

	pr_warn("%ps: method callers still inside after %ds\n", g->owner->kick,
		REVOKE_SLOW_DRAIN_SECS);
	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (revoke_task_inside(t, g))
			sched_show_task(t);
	}
	rcu_read_unlock();
}

/*
 * Kick again, and interrupt the interruptible sleepers that the kick did
 * not reach, while threads are inside methods: from the start of the
 * revoke until the last one has left, doubling the wait up to a second.
 */
static void revoke_kick_work(struct work_struct *work)
{
	struct revoke_gen *g = container_of(to_delayed_work(work),
					    struct revoke_gen, kick_work);
	struct revokable *r = g->owner;

	if (completion_done(&g->drained))
		return;
	revoke_interrupt_sleepers(g);
	if (!g->stuck_reported &&
	    time_after(jiffies, g->kick_since + REVOKE_SLOW_DRAIN_SECS * HZ)) {
		/* Neither reaches a sleeper: a driver bug. */
		revoke_report_stuck(g);
		g->stuck_reported = true;
	}
	if (r->kick)
		r->kick(r);
	g->kick_wait = min(g->kick_wait * 2, (unsigned long)REVOKE_KICK_MAX);
	schedule_delayed_work(&g->kick_work, g->kick_wait);
}

/*
 * Release every file of a drained generation, then free it. Nothing of
 * its revokable is looked at: the last ->release() may free the owner.
 */
static void revoke_gen_release(struct revoke_gen *g)
{
	/* The kicks call the owner: stop them while it surely lives. */
	cancel_delayed_work_sync(&g->kick_work);

	spin_lock(&g->lock);
	while (!hlist_empty(&g->files)) {
		revoke_release_one(g, hlist_entry(g->files.first,
						  struct revoke, node), true);
		cond_resched();
		spin_lock(&g->lock);
	}
	spin_unlock(&g->lock);
	/* start_using() and a last fput() may be looking at it, under RCU. */
	call_rcu(&g->rcu, revoke_gen_free_rcu);
}

/* The release of revoke_it_async(), for the last thread to leave. */
static void revoke_release_work(struct work_struct *work)
{
	revoke_gen_release(container_of(work, struct revoke_gen,
					release_work));
}

/* revoke_begin() with @r->beginning held. */
static void __revoke_begin(struct revokable *r)
{
	struct revoke_gen *g;

	lockdep_assert_held(&r->beginning);
	spin_lock(&r->lock);
	WRITE_ONCE(r->cut_off, true);
	g = rcu_dereference_protected(r->cur, lockdep_is_held(&r->lock));
	/* Only a revoke takes @g off @r, and it kills it first, under us. */
	if (g && percpu_ref_is_dying(&g->users))
		g = NULL;
	spin_unlock(&r->lock);
	if (!g)
		return;

	percpu_ref_kill_and_confirm(&g->users, revoke_gen_confirmed);
	wait_for_completion(&g->confirmed);
	if (!g->busy)
		return;
	g->kick_since = jiffies;
	g->kick_wait = REVOKE_KICK_FIRST;
	if (r->kick)
		r->kick(r);
	schedule_delayed_work(&g->kick_work, g->kick_wait);
}

/**
 * revoke_begin - cut off every file open on a revokable, without waiting
 * @r: the revokable
 *
 * The first part of revoke_it() and revoke_it_async(), for an owner that
 * must take its object down before the files can go: a tty's hangup takes
 * the line discipline down, which waits for its readers and writers. When
 * it returns, start_using() on any file of @r fails, make_revokable() on
 * @r fails with -ENODEV, revoke_pending() is true inside the methods of
 * those files, and while threads are inside them @r->kick has run and
 * runs again, and those asleep interruptibly are interrupted, until the
 * last has left.
 *
 * It waits for no thread inside a method, so it may be called from a
 * method of a file of @r, and with locks that such a method takes held
 * (not the locks that @r->kick takes). The owner must call revoke_it()
 * or revoke_it_async() later, which finishes the revoke. Does nothing if
 * @r is already cut off.
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

/* Take the cut-off generation off @r, for the revoke to release. */
static struct revoke_gen *revoke_take_gen(struct revokable *r)
{
	struct revoke_gen *g;

	lockdep_assert_held(&r->revoking);
	spin_lock(&r->lock);
	g = rcu_dereference_protected(r->cur, lockdep_is_held(&r->lock));
	RCU_INIT_POINTER(r->cur, NULL);
	WRITE_ONCE(r->dead, true);
	spin_unlock(&r->lock);
	return g;
}

/* revoke_it(), or revoke_it_killable() if @killable. */
static int __revoke_it(struct revokable *r, bool killable)
{
	struct revoke_gen *g;
	int err = 0;

	might_sleep();
	mutex_lock(&r->revoking);
	if (r->dead)
		goto out;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquire_exclusive(&r->dep_map, 0, 0, NULL, _RET_IP_);
#endif
	revoke_begin(r);
	/* Cut off: @r->cur stays until we take it. */
	g = rcu_dereference_protected(r->cur, lockdep_is_held(&r->revoking));
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	if (g && !completion_done(&g->drained))
		lock_contended(&r->dep_map, _RET_IP_);
#endif
	if (g && killable)
		err = wait_for_completion_killable(&g->drained);
	else if (g)
		wait_for_completion(&g->drained);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquired(&r->dep_map, _RET_IP_);
	lock_release(&r->dep_map, _RET_IP_);
#endif
	g = revoke_take_gen(r);
	if (err) {
		mutex_unlock(&r->revoking);
		/* Go on as revoke_it_async(): the drain may have come since. */
		if (g && atomic_dec_and_test(&g->release_waits))
			revoke_gen_release(g);
		return -EINTR;
	}
	/* Drained: the release is ours, not the work's. */
	if (g)
		revoke_gen_release(g);
out:
	mutex_unlock(&r->revoking);
	return 0;
}

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
 * A thread that sleeps uninterruptibly inside a method where no kick
 * reaches keeps it waiting; after a few seconds the work that kicks names
 * it, once. Revokes that must not wait use revoke_it_async(), those that
 * a user may give up on revoke_it_killable().
 *
 * Context: Process context; sleeps. Never from a method of a file of @r,
 * nor holding a lock that such a method takes.
 */
void revoke_it(struct revokable *r)
{
	__revoke_it(r, false);
}
EXPORT_SYMBOL_GPL(revoke_it);

/**
 * revoke_it_killable - revoke_it(), unless the caller is killed meanwhile
 * @r: the revokable
 *
 * Return: 0 as for revoke_it(); or -EINTR if a fatal signal came while
 * threads were still inside methods of the files of @r: the revoke then
 * goes on as revoke_it_async() does, and the same rule holds for the
 * owner, which must keep its object until the files are released.
 *
 * Context: as for revoke_it().
 */
int revoke_it_killable(struct revokable *r)
{
	return __revoke_it(r, true);
}
EXPORT_SYMBOL_GPL(revoke_it_killable);

/**
 * revoke_it_async - revoke every file open on a revokable, without waiting
 * @r: the revokable
 *
 * revoke_it() for callers that must not wait on user space: a hangup, an
 * unplug. When it returns the files of @r are cut off and the threads
 * inside their methods kicked and interrupted as by revoke_it(), but
 * those threads may still be inside. The files are released when the last
 * of them leaves: here if none is inside, else from a work. @r may be
 * re-armed at once, and new files opened on it then are not held up by
 * the old ones.
 *
 * The owner must keep its object, @r included, until ->release() has run
 * for each of those files, and then free it RCU-deferred, as after
 * revoke_it(). Does nothing if @r is already revoked.
 *
 * Context: Process context; sleeps for an RCU grace period. May call
 * ->release() of the files: not with a lock held that it takes. Not from
 * a method of a file of @r either: it takes the mutex that revoke_it()
 * holds while it waits for such methods.
 */
void revoke_it_async(struct revokable *r)
{
	struct revoke_gen *g = NULL;

	might_sleep();
	mutex_lock(&r->revoking);
	if (!r->dead) {
		revoke_begin(r);
		g = revoke_take_gen(r);
	}
	mutex_unlock(&r->revoking);
	/* Released by whichever comes last, the drain or us. */
	if (g && atomic_dec_and_test(&g->release_waits))
		revoke_gen_release(g);
}
EXPORT_SYMBOL_GPL(revoke_it_async);

/**
 * revokable_rearm - bring a revoked revokable back into service
 * @r: the revokable, after revoke_it() or revoke_it_async()
 *
 * New files may be opened on @r again; the files the revoke cut off stay
 * revoked, and may still be waiting for their release. A tty reopened
 * after its hangup is the model user.
 */
void revokable_rearm(struct revokable *r)
{
	mutex_lock(&r->revoking);
	mutex_lock(&r->beginning);
	if (!WARN_ON_ONCE(!r->dead)) {
		spin_lock(&r->lock);
		WRITE_ONCE(r->dead, false);
		WRITE_ONCE(r->cut_off, false);
		spin_unlock(&r->lock);
	}
	mutex_unlock(&r->beginning);
	mutex_unlock(&r->revoking);
}
EXPORT_SYMBOL_GPL(revokable_rearm);

/**
 * revokable_exit - tear a revokable down
 * @r: the revokable
 *
 * Revokes what is still open, with revoke_it(). The object that embeds
 * @r must then be freed RCU-deferred.
 */
void revokable_exit(struct revokable *r)
{
	revoke_it(r);
}
EXPORT_SYMBOL_GPL(revokable_exit);

static int __init revoke_init(void)
{
	revoke_cachep = KMEM_CACHE(revoke, SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
fs_initcall(revoke_init);
