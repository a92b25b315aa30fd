/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the tests of /dev/test_revoke (lib/test_revoke.c in
 * the kernel): opening it, revoking every file open on it through
 * debugfs, reading its counters, and running a blocking call in a thread
 * that the test can watch fall asleep and wake up.
 *
 * The device is a small pipe-like buffer shared by all its files. A
 * revoke ends the current "generation": every file open then is cut off
 * and released, and the next open starts afresh with an empty buffer.
 * A revoked file answers from the revoke core's default table: -ENODEV
 * for read, write, ioctl, mmap and fasync, POLLERR | POLLHUP for poll,
 * and lseek still does nothing.
 */
#ifndef USERSPACE_TESTS_REVOKE_HELPERS_H
#define USERSPACE_TESTS_REVOKE_HELPERS_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

#include "expect-errno.h"
#include "thread-state.h"

#define REVOKE_DEV		"/dev/test_revoke"
#define REVOKE_DEBUGFS		"/sys/kernel/debug/test_revoke"

/* How long a call may take to fall asleep, and to return once revoked. */
#define REVOKE_SLEEP_TIMEOUT_MS	5000
#define REVOKE_WAKE_TIMEOUT_MS	10000

/* Opens REVOKE_DEV O_RDWR | O_CLOEXEC | flags; returns fd or -errno. */
int revoke_dev_open(int flags);
/*
 * Revokes every file open on the device, from this thread, by a write to
 * the debugfs file; returns once the revoke is complete: 0 or -errno.
 */
int revoke_dev_revoke(void);
/* Writes to the debugfs file @name ("revoke_async", "unstick"...). */
int revoke_dev_knob(const char *name);
/*
 * Kills child @pid with SIGKILL and reaps it: whether it died of that
 * signal within @timeout_ms.
 */
bool kill_and_reap(pid_t pid, int timeout_ms);
/* The debugfs counter "opens", "releases", "kicks"...; value or -errno. */
long revoke_dev_counter(const char *name);
/*
 * Writes to a live fd until the buffer is full, without blocking; the
 * fd's O_NONBLOCK is put back. Returns the bytes written or -errno.
 */
ssize_t revoke_dev_fill(int fd);

/*
 * A call made in a thread of its own: fn(call) runs there and its return
 * value and errno are kept. The test starts it, waits until it sleeps in
 * the kernel, acts, then joins it with a time limit.
 */
struct revoke_call;
typedef long (*revoke_call_fn)(struct revoke_call *call);

struct revoke_call {
	revoke_call_fn fn;
	int fd;			/* for fn */
	void *arg;		/* for fn */
	pthread_t thread;
	bool running;		/* started and not joined yet */
	volatile pid_t tid;	/* set by the thread before it calls fn */
	long ret;		/* what fn returned */
	int err;		/* errno after fn, if ret < 0 */
};

/* Starts fn in a new thread; returns 0 or -errno. */
int revoke_call_start(struct revoke_call *call, revoke_call_fn fn, int fd,
		      void *arg);
/* Waits until the call sleeps in system call nr; 0 or -ETIMEDOUT. */
int revoke_call_wait_asleep(struct revoke_call *call, long nr);
/* Joins the call within timeout_ms: 0, or -ETIMEDOUT if still inside. */
int revoke_call_join(struct revoke_call *call, int timeout_ms);

/* Asserts that a revoke went through. */
#define ASSERT_REVOKED()						\
	do {								\
		int _rv_r = revoke_dev_revoke();			\
									\
		ASSERT_EQ(0, _rv_r)					\
			TH_LOG("revoke: %s", strerror(-_rv_r));		\
	} while (0)

/* Reads a counter into var, asserting that it could. */
#define ASSERT_COUNTER(var, name)					\
	do {								\
		(var) = revoke_dev_counter(name);			\
		ASSERT_LE(0, (var))					\
			TH_LOG("counter %s: %s", name,			\
			       strerror(-(int)(var)));			\
	} while (0)

/* The call returned in time; it failed the test otherwise. */
#define ASSERT_CALL_RETURNS(call)					\
	do {								\
		ASSERT_EQ(0, revoke_call_join(call,			\
					      REVOKE_WAKE_TIMEOUT_MS))	\
			TH_LOG("still asleep %d ms after the revoke",	\
			       REVOKE_WAKE_TIMEOUT_MS);			\
	} while (0)

/*
 * Starts fn in call's thread, waits until it sleeps in system call nr,
 * revokes the device and waits for the call to return; what it returned
 * is then in call->ret and call->err.
 */
#define ASSERT_CALL_WOKEN_BY_REVOKE(call, fn, fd, arg, nr)		\
	do {								\
		ASSERT_EQ(0, revoke_call_start(call, fn, fd, arg));	\
		ASSERT_EQ(0, revoke_call_wait_asleep(call, nr))		\
			TH_LOG("the call does not sleep in %s", #nr);	\
		ASSERT_REVOKED();					\
		ASSERT_CALL_RETURNS(call);				\
	} while (0)

/* The call returned want; errno is shown in case it failed. */
#define EXPECT_CALL_RET(call, want, what)				\
	EXPECT_EQ(want, (call)->ret)					\
		TH_LOG("%s: %s", what, strerror((call)->err))

/* The call failed with -1 and errno want_err. */
#define EXPECT_CALL_ERRNO(call, want_err, what)				\
	do {								\
		EXPECT_EQ(-1, (call)->ret);				\
		EXPECT_EQ(want_err, (call)->err)			\
			TH_LOG("%s: %s", what, strerror((call)->err));	\
	} while (0)

#endif
