// SPDX-License-Identifier: GPL-2.0
/*
 * tty-holder DEVICE DIR: the process that held a terminal before a login.
 *
 * Opens DEVICE in a session of its own, then keeps it: the first thing it
 * reads is appended to DIR/captured (one read shows it can take what is
 * typed; reading on would leave nothing for a login), and DIR/state says
 * "live" while the fd works
 * (TCGETS succeeds) or, once the fd is dead, what each call returns:
 *
 *	hungup read=0 write=EIO tiocsti=EIO
 *
 * It exits once the fd is dead. A login-hygiene test plants it before
 * agetty runs and reads both files afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static const char *dir;

static void put_state(const char *text)
{
	char path[256], tmp[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/state", dir);
	snprintf(tmp, sizeof(tmp), "%s/state.tmp", dir);
	f = fopen(tmp, "w");
	if (!f)
		exit(1);
	fprintf(f, "%s\n", text);
	fclose(f);
	rename(tmp, path);
}

static const char *result(long ret)
{
	static char buf[4][32];
	static int i;

	i = (i + 1) % 4;
	if (ret >= 0)
		snprintf(buf[i], sizeof(buf[i]), "%ld", ret);
	else
		snprintf(buf[i], sizeof(buf[i]), "%s", strerrorname_np(errno));
	return buf[i];
}

int main(int argc, char **argv)
{
	char buf[256], state[128], path[256];
	struct termios tio;
	struct pollfd pfd;
	int fd, out;
	bool captured = false;
	ssize_t n;
	char c = 'x';

	if (argc != 3) {
		fprintf(stderr, "usage: tty-holder DEVICE DIR\n");
		return 2;
	}
	dir = argv[2];
	if (setsid() < 0 && errno != EPERM)
		return 1;
	fd = open(argv[1], O_RDWR | O_NOCTTY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/captured", dir);
	out = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (out < 0)
		return 1;
	put_state("live");

	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		if (captured) {
			usleep(100000);
		} else if (poll(&pfd, 1, 100) > 0 &&
			   !(pfd.revents & (POLLERR | POLLHUP))) {
			n = read(fd, buf, sizeof(buf));
			if (n > 0) {
				if (write(out, buf, n) != n)
					return 1;
				captured = true;
				continue;
			}
		}
		if (ioctl(fd, TCGETS, &tio) == 0)
			continue;
		break;
	}

	n = read(fd, buf, sizeof(buf));
	snprintf(state, sizeof(state), "hungup read=%s", result(n));
	n = write(fd, "x", 1);
	snprintf(state + strlen(state), sizeof(state) - strlen(state),
		 " write=%s", result(n));
	n = ioctl(fd, TIOCSTI, &c);
	snprintf(state + strlen(state), sizeof(state) - strlen(state),
		 " tiocsti=%s", result(n));
	put_state(state);
	return 0;
}
