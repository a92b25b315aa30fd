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
 * SIGUSR1 asks whether the fd works at that moment: DIR/probe gets "live"
 * or "dead" (TCGETS), read nothing. A test sends it when the login prompt
 * appears, before it types anything. Once the fd is dead the holder closes
 * it and stays until it is killed, so that a probe always has an answer. A
 * login-hygiene test plants it before agetty runs and reads the files
 * afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static const char *dir;
static volatile sig_atomic_t probe_asked;

static void put_file(const char *name, const char *text)
{
	char path[256], tmp[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	f = fopen(tmp, "w");
	if (!f)
		exit(1);
	fprintf(f, "%s\n", text);
	fclose(f);
	rename(tmp, path);
}

static void ask_probe(int sig)
{
	probe_asked = 1;
}

static bool fd_works(int fd)
{
	struct termios tio;

	return ioctl(fd, TCGETS, &tio) == 0;
}

static void answer_probe(int fd)
{
	if (!probe_asked)
		return;
	probe_asked = 0;
	put_file("probe", fd >= 0 && fd_works(fd) ? "live" : "dead");
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
	const struct timespec tick = { .tv_nsec = 100 * 1000 * 1000 };
	struct sigaction sa = { .sa_handler = ask_probe };
	sigset_t usr1, while_waiting;
	char buf[256], state[128], path[256];
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

	/* A probe is taken only inside ppoll()/sigsuspend(), between calls. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &while_waiting);
	sigdelset(&while_waiting, SIGUSR1);
	sigaction(SIGUSR1, &sa, NULL);
	put_file("state", "live");

	pfd.fd = fd;
	for (;;) {
		/* After the first capture, only watch for the hangup. */
		pfd.events = captured ? 0 : POLLIN;
		pfd.revents = 0;
		ppoll(&pfd, 1, &tick, &while_waiting);
		answer_probe(fd);
		if ((pfd.revents & POLLIN) &&
		    !(pfd.revents & (POLLERR | POLLHUP))) {
			n = read(fd, buf, sizeof(buf));
			if (n > 0) {
				if (write(out, buf, n) != n)
					return 1;
				captured = true;
				continue;
			}
		}
		if (!fd_works(fd))
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
	put_file("state", state);
	/* Let the line go as an exit would, and answer probes until killed. */
	close(fd);
	for (;;) {
		sigsuspend(&while_waiting);
		answer_probe(-1);
	}
}
