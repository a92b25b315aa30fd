// SPDX-License-Identifier: GPL-2.0
/*
 * tty-vhangup DEVICE: hang up DEVICE the way a getty must before it prints
 * a login prompt: become a session leader, make DEVICE the controlling
 * terminal, and call vhangup(2), which acts only on the caller's
 * controlling terminal. Every earlier holder of the line is cut off.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: tty-vhangup DEVICE\n");
		return 2;
	}
	/* A process group leader cannot start a session: do it in a child. */
	if (getpid() == getpgrp()) {
		pid_t child = fork();
		int status;

		if (child < 0)
			return 1;
		if (child > 0) {
			if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status))
				return 1;
			return WEXITSTATUS(status);
		}
	}
	if (setsid() < 0) {
		perror("setsid");
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || ioctl(fd, TIOCSCTTY, 1) < 0) {
		perror(argv[1]);
		return 1;
	}
	/* The hangup sends SIGHUP to us, the session leader. */
	signal(SIGHUP, SIG_IGN);
	if (vhangup() < 0) {
		perror("vhangup");
		return 1;
	}
	return 0;
}
