/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lengths of a test's loops, from the NAME=VALUE settings of its suite
 * line, which scripts/guest/run-suite puts in its environment: make check
 * runs short versions, make stress the long ones, with the same
 * assertions.
 */
#ifndef SETTINGS_H
#define SETTINGS_H

/* The positive integer setting @name, or @fallback if it is not set. */
int suite_setting(const char *name, int fallback);

#endif
