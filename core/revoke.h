/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Revoking open files of an object that goes away.
 *
 * A struct revokable lives in an object that can disappear while files are
 * open on it: a tty that is hung up, a sound card that is unplugged. Each
 * file opened on it carries a struct revoke, made by make_revokable() as
 * the very last step of ->open(). The VFS brackets every call of a method
 * of such a file, except ->release(), with start_using() and stop_using()
 * (in <linux/fs.h>, next to the file_operations they guard).
 *
 * revoke_it() cuts all of those files off at once: from then on
 * start_using() fails and the VFS calls the owner's "revoked" table of
 * file_operations instead of the live one; threads still inside a method
 * are woken by the owner's ->kick(), those asleep interruptibly where the
 * kick does not reach are interrupted as by a signal, and all are waited
 * for; then ->release() is called on every file, exactly once, whether
 * revoke_it() or the last fput() gets there first. An owner that must
 * take its object down before it can wait for those threads calls
 * revoke_begin() first, which cuts the files off and wakes the threads
 * without waiting for them. After revoke_it() returns no thread is inside
 * a live method of any of those files and none will enter one, so the
 * owner can free the object, RCU-deferred.
 *
 * Unlike a shared atomic counter, start_using() writes no cacheline shared
 * between CPUs: the count of threads inside methods is a percpu_ref, which
 * revoke_it() switches to atomic mode to wait for it to drain.
 *
 * The one rule: never call revoke_it() from a method of a file it revokes,
 * or while holding anything such a method may wait for. It would wait for
 * itself; lockdep reports it.
 *
 * See Documentation/filesystems/revoke.rst.
 */
#ifndef _LINUX_REVOKE_H
#define _LINUX_REVOKE_H

#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>	/* revoke_pending() */
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct revokable;

/**
 * typedef revoke_kick_t - wake threads that sleep inside methods
 * @r: the revokable being revoked
 *
 * Called by revoke_begin() or revoke_it() while threads are still inside
 * methods of its files, then again from a work until they have left: it
 * must end every indefinite wait in them (wake the wait queues they sleep
 * on) and be cheap when nobody sleeps. A wait that starts after the kick
 * is kicked again later, or can check revokable_is_dying() before it
 * sleeps. It must not take a lock that the caller of revoke_begin() or
 * revoke_it() holds.
 *
 * An interruptible wait that the kick misses still ends: the revoke then
 * makes signal_pending() true for the threads asleep interruptibly inside
 * the methods, and the calls, restarted, meet the revoked table, unless
 * the wait's condition checks revoke_pending() and the method returns
 * its own answer. The kick is what ends uninterruptible waits.
 */
typedef void (revoke_kick_t)(struct revokable *r);

/**
 * struct revokable - the part of an object that can revoke its files
 * @users: threads inside methods of the files, plus one while live
 * @confirmed: @users seen dead by every CPU
 * @drained: @users reached zero
 * @kick: wakes threads that sleep in methods, see revoke_kick_t
 * @lock: protects @files and the release handshake of each revoke
 * @files: the struct revoke of every file open on the object
 * @revoking: serializes revoke_it(), revokable_rearm() and revokable_exit()
 * @beginning: serializes revoke_begin(), and @dead's changes
 * @kick_work: kicks and interrupts again while threads are inside
 * @kick_since: when the first kick ran
 * @kick_wait: how long @kick_work waits next
 * @busy: someone was inside a method when the kill was confirmed
 * @stuck_reported: the threads that do not leave have been named
 * @dead: revoked and not re-armed since
 * @dep_map: lets lockdep see revoke_it() wait for method callers
 *
 * The object that embeds it must be freed RCU-deferred (kfree_rcu() or
 * call_rcu()) after revokable_exit(): start_using() on a revoked file may
 * still be looking at it for one grace period.
 */
struct revokable {
	struct percpu_ref users;
	struct completion confirmed;
	struct completion drained;
	revoke_kick_t *kick;
	spinlock_t lock;		/* protects files, each ->releasing */
	struct hlist_head files;
	struct mutex revoking;		/* one revoke or re-arm at a time */
	struct mutex beginning;		/* one revoke_begin() at a time */
	struct delayed_work kick_work;
	unsigned long kick_since;
	unsigned long kick_wait;
	bool busy;
	bool stuck_reported;
	bool dead;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

/**
 * struct revoke - the link of one open file to its revokable
 * @file: the file, never changes
 * @revokable: the revokable, NULL once the file has been released
 * @revoked_fops: the methods called once the file is revoked
 * @node: entry in @revokable->files
 * @releasing: ->release() has been called or is being called
 * @released: completed for a thread waiting for the other to release
 *
 * Allocated by make_revokable(), freed at the last fput().
 */
struct revoke {
	struct file *file;
	struct revokable __rcu *revokable;
	const struct file_operations *revoked_fops;
	struct hlist_node node;
	bool releasing;
	struct completion *released;
};

int __revokable_init(struct revokable *r, revoke_kick_t *kick,
		     const char *name, struct lock_class_key *users_key,
		     struct lock_class_key *revoking_key,
		     struct lock_class_key *beginning_key);

/**
 * revokable_init - prepare a revokable for files to be opened on it
 * @r: the revokable
 * @kick: wakes sleepers in methods, or NULL if methods never sleep long
 *
 * Each call site is a lockdep class of its own, so that revoking one kind
 * of object from the ->release() of another is not taken for recursion.
 *
 * Return: 0, or -ENOMEM.
 */
#define revokable_init(r, kick)						\
({									\
	static struct lock_class_key __users_key, __revoking_key,	\
		__beginning_key;					\
									\
	__revokable_init((r), (kick), #r, &__users_key, &__revoking_key, \
			 &__beginning_key);				\
})

void revokable_exit(struct revokable *r);
void revoke_begin(struct revokable *r);
void revoke_it(struct revokable *r);
void revokable_rearm(struct revokable *r);
int make_revokable(struct file *file, struct revokable *r,
		   const struct file_operations *revoked_fops);
void release_revoke(struct file *file);
bool file_is_revoked(struct file *file);

/**
 * revokable_is_dying - whether a revoke of @r is under way or done
 * @r: the revokable
 *
 * A method about to sleep can check this after queueing itself on its
 * wait queue, so that it does not miss a kick() that ran just before.
 *
 * Return: true from the start of revoke_begin() or revoke_it() until
 * revokable_rearm().
 */
static inline bool revokable_is_dying(struct revokable *r)
{
	return percpu_ref_is_dying(&r->users);
}

/**
 * revoke_wake_pollfree - make pollers let go of a revoked object's queue
 * @wq: a wait queue that ->poll() of the object's files waited on
 *
 * Call after revoke_it(), before @wq is freed (RCU-deferred). Pollers
 * that complete from their wakeup (io_uring poll requests, io_uring reads
 * and writes waiting for readiness, AIO poll) first get EPOLLERR |
 * EPOLLHUP, the answer poll(), select() and epoll find when they poll the
 * revoked file again; wake_up_pollfree() then unhooks what is left, which
 * on its own would cancel those requests (-ECANCELED) or complete them
 * with EPOLLHUP alone.
 */
static inline void revoke_wake_pollfree(struct wait_queue_head *wq)
{
	__wake_up(wq, TASK_NORMAL, 0, poll_to_key(EPOLLERR | EPOLLHUP));
	wake_up_pollfree(wq);
}

#endif /* _LINUX_REVOKE_H */
