// SPDX-License-Identifier: GPL-2.0
/*
 * revoke PATH...: cut off every open file of the devices the paths name,
 * with revokeat(2). Every process that held one of them finds its file
 * dead, as after a hangup; the device can be opened again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_revokeat
#define __NR_revokeat 463
#endif

static int revokeat(int dfd, const char *path, unsigned int flags)
{
	return syscall(__NR_revokeat, dfd, path, flags);
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: %s PATH...\n"
			"Revoke every open file of the devices (a tty, an ALSA device) PATH names.\n",
			argv[0]);
		return argc < 2 ? 2 : 0;
	}
	for (i = 1; i < argc; i++) {
		if (revokeat(AT_FDCWD, argv[i], 0)) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i],
				strerror(errno));
			status = 1;
		}
	}
	return status;
}
