/* SPDX-License-Identifier: GPL-2.0 */
/* revokeat(2), which the C library does not know yet. */
#ifndef USERSPACE_TESTS_REVOKEAT_H
#define USERSPACE_TESTS_REVOKEAT_H

#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_revokeat
#define __NR_revokeat	463	/* x86_64 */
#endif

static inline int sys_revokeat(int dfd, const char *path, unsigned int flags)
{
	return syscall(__NR_revokeat, dfd, path, flags);
}

#endif
