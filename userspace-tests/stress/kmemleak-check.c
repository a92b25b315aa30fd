// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak-check [clear]: with "clear", forget what kmemleak knows of
 * before a run; without, scan after it and fail on any report. For the
 * leak-check kernel (configs/leak.config), around another test of a suite.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmemleak.h"

static char report[65536];

int main(int argc, char **argv)
{
	bool clear = argc > 1 && !strcmp(argv[1], "clear");
	ssize_t n;
	int ret;

	printf("1..1\n");
	if (clear) {
		/* a scan first: clear forgets only what was reported */
		ret = kmemleak_command("scan");
		if (!ret)
			ret = kmemleak_command("clear");
		printf("%sok 1 kmemleak cleared%s%s\n", ret ? "not " : "",
		       ret ? ": " : "", ret ? strerror(-ret) : "");
		return !!ret;
	}
	usleep(KMEMLEAK_MIN_AGE_MS * 1000);
	/* Twice, as kmemleak's documentation advises: fewer false leaks */
	ret = kmemleak_command("scan");
	if (!ret)
		ret = kmemleak_command("scan");
	n = ret ? ret : kmemleak_report(report, sizeof(report));
	if (n > 0)
		fputs(report, stdout);
	printf("%sok 1 kmemleak reports nothing%s%s\n", n ? "not " : "",
	       n < 0 ? ": " : "", n < 0 ? strerror(-n) : "");
	return n != 0;
}
