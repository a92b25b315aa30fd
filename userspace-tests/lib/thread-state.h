/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Watching another thread from a test: is it asleep in a given system
 * call yet? Read from /proc/<tid>/stat and /proc/<tid>/syscall, which
 * work for any thread of any process.
 */
#ifndef USERSPACE_TESTS_THREAD_STATE_H
#define USERSPACE_TESTS_THREAD_STATE_H

#include <stdbool.h>
#include <sys/types.h>

/* For thread_asleep_in(): whatever the call's first argument. */
#define ANY_ARG		(-1LL)

long long now_ms(void);
void sleep_ms(int ms);
/* Reads a small file whole, NUL-terminated: its length or -errno. */
ssize_t read_small(const char *path, char *buf, size_t len);
/* Whether @tid sleeps in system call @nr with first argument @arg0. */
bool thread_asleep_in(pid_t tid, long nr, long long arg0);
/*
 * Waits until thread_asleep_in() holds, and still does 200 ms later:
 * 0, or -ETIMEDOUT after @timeout_ms.
 */
int wait_asleep_in(pid_t tid, long nr, long long arg0, int timeout_ms);

#endif
