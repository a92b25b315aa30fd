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
 * revoke_it() or the last fput() gets there first. After revoke_it()
 * returns no thread is inside a live method of any of those files and
 * none will enter one, so the owner can free the object, RCU-deferred.
 *
 * revoke_it_async() does the same without waiting: the files are cut off
 * and the threads woken when it returns, and each file is released once
 * the last thread has left the methods, from a work if that comes later.
 * It is for revokes that must not wait on user space (a hangup, an
 * unplug), whose owner keeps its object until the releases have run. An
 * owner that must take its object down before it can let the files go
 * calls revoke_begin() first, which cuts them off and wakes the threads.
 *
 * Unlike a shared atomic counter, start_using() writes no cacheline shared
 * between CPUs: the count of threads inside methods is a percpu_ref, which
 * the revoke switches to atomic mode to see it drain.
 *
 * The one rule: never call revoke_it() from a method of a file it revokes,
 * or while holding anything such a method may wait for. It would wait for
 * itself; lockdep reports it. revoke_it_async() takes the mutex that
 * revoke_it() holds while it waits, so the rule holds for it too; only
 * revoke_begin() may be called there.
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
#include <linux/poll.h>
#include <linux/sched/signal.h>	/* revoke_pending() */
#include <linux/spinlock.h>

struct revokable;

/**
 * typedef revoke_kick_t - wake threads that sleep inside methods
 * @r: the revokable being revoked
 *
 * Called by the revoke while threads are still inside methods of its
 * files, then again from a work until they have left: it
 * must end every indefinite wait in them (wake the wait queues they sleep
 * on) and be cheap when nobody sleeps. A wait that starts after the kick
 * is kicked again later, or can check revoke_pending() before it
 * sleeps. It must not take a lock that the caller of the revoke holds.
 * After revoke_it_async() and revokable_rearm() it may still be called
 * for the threads of the old files: waits of the new ones must take the
 * wakeup as spurious.
 *
 * An interruptible wait that the kick misses still ends: the revoke then
 * makes signal_pending() true for the threads asleep interruptibly inside
 * the methods, and the calls, restarted, meet the revoked table, unless
 * the wait's condition checks revoke_pending() and the method returns
 * its own answer. The kick is what ends uninterruptible waits.
 */
typedef void (revoke_kick_t)(struct revokable *r);

struct revoke_gen;

/**
 * struct revokable - the part of an object that can revoke its files
 * @cur: the generation that new files join, NULL until the first open
 *	after revokable_init() or revokable_rearm()
 * @kick: wakes threads that sleep in methods, see revoke_kick_t
 * @lock: protects @cur and @cut_off
 * @cut_off: a revoke has begun, and the revokable is not re-armed yet
 * @dead: the revoke has taken the generation off, not re-armed since
 * @revoking: serializes revoke_it(), revoke_it_async(), revokable_rearm()
 *	and revokable_exit()
 * @beginning: serializes revoke_begin()
 * @dep_map: lets lockdep see revoke_it() wait for method callers
 *
 * The files open on the object between two revokes are a generation:
 * they share a count of the threads inside their methods, which the
 * revoke waits to drain. A revoke that does not wait (revoke_it_async())
 * takes the generation off the revokable at once, so that re-arming it
 * never waits for the threads still inside: the next open starts a new
 * generation, and the old one releases its files when its last thread
 * leaves.
 *
 * The object that embeds it must be freed RCU-deferred (kfree_rcu() or
 * call_rcu()) after revokable_exit(), and not before ->release() has run
 * for every file of a revoke_it_async().
 */
struct revokable {
	struct revoke_gen __rcu *cur;
	revoke_kick_t *kick;
	spinlock_t lock;		/* protects cur, cut_off */
	bool cut_off;
	bool dead;
	struct mutex revoking;		/* one revoke or re-arm at a time */
	struct mutex beginning;		/* one revoke_begin() at a time */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

/**
 * struct revoke - the link of one open file to its generation
 * @file: the file, never changes
 * @gen: the generation of files it belongs to, NULL once it has been
 *	released
 * @revoked_fops: the methods called once the file is revoked
 * @node: entry in the generation's list of files
 * @releasing: ->release() has been called or is being called
 * @released: completed for a thread waiting for the other to release
 *
 * Allocated by make_revokable(), freed at the last fput().
 */
struct revoke {
	struct file *file;
	struct revoke_gen __rcu *gen;
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
void revoke_it_async(struct revokable *r);
int revoke_it_killable(struct revokable *r);
void revokable_rearm(struct revokable *r);
int make_revokable(struct file *file, struct revokable *r,
		   const struct file_operations *revoked_fops);
void release_revoke(struct file *file);
bool file_is_revoked(struct file *file);

/**
 * revokable_is_dying - whether a revoke of @r is under way or done
 * @r: the revokable
 *
 * Return: true from the start of revoke_begin(), revoke_it() or
 * revoke_it_async() until revokable_rearm(). A method that may still run
 * after the re-arm (after revoke_it_async()) checks revoke_pending()
 * instead.
 */
static inline bool revokable_is_dying(struct revokable *r)
{
	return READ_ONCE(r->cut_off);
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
