// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "settings.h"

int suite_setting(const char *name, int fallback)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s)
		return fallback;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v <= 0 || v > 1000000) {
		/* A typo in a suite must not shorten a test unnoticed. */
		fprintf(stderr, "setting %s=%s is not a positive count\n", name, s);
		exit(2);
	}
	return v;
}
