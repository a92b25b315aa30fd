/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemleak's debugfs file, for tests booted on the leak-check kernel
 * (configs/leak.config: on from boot, scanned only when asked).
 */
#ifndef USERSPACE_TESTS_KMEMLEAK_H
#define USERSPACE_TESTS_KMEMLEAK_H

#include <sys/types.h>

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
/* kmemleak reports no object younger than 5 s (MSECS_MIN_AGE) */
#define KMEMLEAK_MIN_AGE_MS	6000

/* Writes a command ("scan", "clear") to kmemleak: 0 or -errno. */
int kmemleak_command(const char *cmd);
/* What kmemleak reports, up to len - 1 bytes: its length or -errno. */
ssize_t kmemleak_report(char *buf, size_t len);

#endif
