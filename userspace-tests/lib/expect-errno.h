/* SPDX-License-Identifier: GPL-2.0 */
#ifndef USERSPACE_TESTS_EXPECT_ERRNO_H
#define USERSPACE_TESTS_EXPECT_ERRNO_H

#include <errno.h>
#include <string.h>

/*
 * Expects expr to fail with -1 and errno err. Use after including
 * kselftest_harness.h.
 */
#define EXPECT_ERRNO(err, expr)						\
	do {								\
		long _ee_ret;						\
		int _ee_err;						\
									\
		errno = 0;						\
		_ee_ret = (long)(expr);				\
		_ee_err = errno;					\
		EXPECT_EQ(-1, _ee_ret)				\
			TH_LOG("%s returned %ld, expected -1/%s", #expr,\
			       _ee_ret, strerror(err));		\
		if (_ee_ret == -1)					\
			EXPECT_EQ(err, _ee_err)			\
				TH_LOG("%s: %s, expected %s", #expr,	\
				       strerror(_ee_err),		\
				       strerror(err));			\
	} while (0)

#endif
