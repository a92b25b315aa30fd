// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "revokeat.h"
#include "tty-helpers.h"

#define AGENT_TIMEOUT_MS 10000
#define MAX_AGENTS 8

int tty_dev_init(struct tty_dev *dev, enum tty_kind kind)
{
	const char *serial = getenv("TTY_TEST_SERIAL");
	int err;

	dev->kind = kind;
	dev->master = -1;
	if (kind == TTY_SERIAL) {
		snprintf(dev->path, sizeof(dev->path), "%s",
			 serial && *serial ? serial : "/dev/ttyS3");
		return access(dev->path, R_OK | W_OK) ? -errno : 0;
	}
	snprintf(dev->path, sizeof(dev->path), "/dev/ptmx");
	dev->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (dev->master < 0)
		return -errno;
	if (grantpt(dev->master) || unlockpt(dev->master) ||
	    ptsname_r(dev->master, dev->path, sizeof(dev->path))) {
		err = -errno;
		close(dev->master);
		dev->master = -1;
		return err;
	}
	/* The master is raw: what it reads is what the slave sent. */
	return tty_make_raw(dev->master);
}

void tty_dev_fini(struct tty_dev *dev)
{
	if (dev->master >= 0)
		close(dev->master);
	dev->master = -1;
}

int tty_make_raw(int fd)
{
	struct termios tio;

	if (tcgetattr(fd, &tio))
		return -errno;
	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return tcsetattr(fd, TCSANOW, &tio) ? -errno : 0;
}

int tty_open(const char *path, enum tty_kind kind)
{
	struct termios tio;
	int fd, err;

	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, 0))
		goto fail;
	if (kind == TTY_SERIAL) {
		/* Modem lines must not matter: no wait for carrier. */
		if (tcgetattr(fd, &tio))
			goto fail;
		tio.c_cflag |= CLOCAL;
		if (tcsetattr(fd, TCSANOW, &tio))
			goto fail;
	}
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

const char *tty_hangup_name(enum tty_hangup how)
{
	switch (how) {
	case HANGUP_VHANGUP:
		return "vhangup";
	case HANGUP_TIOCVHANGUP:
		return "TIOCVHANGUP";
	case HANGUP_SESSION_EXIT:
		return "session leader exit";
	case HANGUP_REVOKEAT:
		return "revokeat";
	}
	return "?";
}

int tty_hangup_from_new_session(const char *path, enum tty_kind kind,
				enum tty_hangup how)
{
	struct tty_agent *a;
	int ret;

	a = tty_agent_start(path, kind, how == HANGUP_VHANGUP ||
			    how == HANGUP_SESSION_EXIT ?
			    AGENT_SETSID | AGENT_CTTY : AGENT_SETSID);
	if (!a)
		return -errno;
	switch (how) {
	case HANGUP_VHANGUP:
		ret = tty_agent_call(a, AGENT_VHANGUP, 0);
		break;
	case HANGUP_TIOCVHANGUP:
		ret = tty_agent_call(a, AGENT_TIOCVHANGUP, 0);
		break;
	case HANGUP_REVOKEAT:
		ret = tty_agent_call(a, AGENT_REVOKEAT, 0);
		break;
	case HANGUP_SESSION_EXIT:
		return tty_agent_exit(a);
	default:
		ret = -EINVAL;
	}
	/* Its SIGHUP and SIGCONT (vhangup) are not what the caller tests. */
	tty_agent_exit(a);
	return ret;
}

/*
 * Agents. Messages both ways are one struct agent_msg per packet on a
 * SOCK_SEQPACKET pair: commands to the agent, answers and signal reports
 * from it. A signal handler sends its report at once, so a report always
 * comes before the answer to the command during which it was handled.
 */
enum { MSG_ANSWER = 100, MSG_SIGNAL };

struct agent_msg {
	int type;
	int value;
	int code;	/* a signal's si_code */
};

static struct tty_agent agents[MAX_AGENTS];
static int agent_sock = -1;	/* in an agent: its end of the socket */

static int send_msg(int sock, int type, int value, int code, int pass_fd)
{
	struct agent_msg m = { .type = type, .value = value, .code = code };
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (pass_fd >= 0) {
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == sizeof(m) ? 0 : -1;
}

/* Returns 1 with a message, 0 at EOF, -1 on error. */
static int recv_msg(int sock, struct agent_msg *m, int *passed_fd, int flags)
{
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	ssize_t n;

	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | flags);
	if (n <= 0)
		return n;
	if (n != sizeof(*m)) {
		errno = EPROTO;
		return -1;
	}
	c = CMSG_FIRSTHDR(&mh);
	if (passed_fd && c && c->cmsg_type == SCM_RIGHTS)
		memcpy(passed_fd, CMSG_DATA(c), sizeof(int));
	return 1;
}

static void agent_on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	send_msg(agent_sock, MSG_SIGNAL, sig, si->si_code, -1);
	errno = saved;
}

static int agent_cmd_spawn(int fd, const char *path, enum tty_kind kind,
			   int sock, unsigned int flags);

/*
 * Never returns. fd is the tty, or -1 to open it. A spawned agent shares
 * its parent's file: opening its own would reconfigure the tty from a
 * background process group, which tty_check_change() answers with
 * SIGTTOU and -ERESTARTSYS, again and again as the agent handles SIGTTOU.
 */
static void agent_main(int sock, int fd, const char *path,
		       enum tty_kind kind, unsigned int flags)
{
	struct sigaction sa = { .sa_sigaction = agent_on_signal,
				.sa_flags = SA_RESTART | SA_SIGINFO };
	struct agent_msg m;
	sigset_t none;
	int passed, ret, sig;

	/* Hold nothing of the test's but the own socket (and the tty). */
	sock = fcntl(sock, F_DUPFD, 10);
	if (fd >= 0)
		fd = fcntl(fd, F_DUPFD, 10);
	if (sock < 0 || dup2(sock, 3) < 0 || (fd >= 0 && dup2(fd, 4) < 0))
		_exit(1);
	sock = agent_sock = 3;
	if (fd >= 0)
		fd = 4;
	close_range(fd >= 0 ? 5 : 4, ~0U, 0);

	/*
	 * One handler at a time: with two signals pending, the kernel sets
	 * up a frame for each and the later one's handler would run first.
	 */
	sigfillset(&sa.sa_mask);
	signal(SIGPIPE, SIG_IGN);
	/* Children of an agent reap themselves. */
	signal(SIGCHLD, SIG_IGN);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD &&
		    sig != SIGPIPE && sig < SIGRTMIN)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	ret = 0;
	if ((flags & AGENT_SETSID) && setsid() < 0)
		ret = -errno;
	if (!ret && (flags & AGENT_SETPGRP) && setpgid(0, 0))
		ret = -errno;
	if (!ret && fd < 0) {
		fd = tty_open(path, kind);
		if (fd < 0)
			ret = fd;
	}
	if (!ret && (flags & AGENT_CTTY) && ioctl(fd, TIOCSCTTY, 0))
		ret = -errno;
	send_msg(sock, MSG_ANSWER, ret, 0, -1);
	if (ret)
		_exit(1);

	for (;;) {
		passed = -1;
		ret = recv_msg(sock, &m, &passed, 0);
		if (ret == 0)
			_exit(0);	/* the test is gone */
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		switch (m.type) {
		case AGENT_PING:
			ret = 0;
			break;
		case AGENT_VHANGUP:
			ret = vhangup() ? -errno : 0;
			break;
		case AGENT_TIOCVHANGUP:
			ret = ioctl(fd, TIOCVHANGUP) ? -errno : 0;
			break;
		case AGENT_SET_FG:
			ret = tcsetpgrp(fd, m.value) ? -errno : 0;
			break;
		case AGENT_GETSID:
			ret = ioctl(fd, TIOCGSID, &m.value) ? -errno : m.value;
			break;
		case AGENT_REVOKEAT:
			ret = sys_revokeat(AT_FDCWD, path, 0) ? -errno : 0;
			break;
		case AGENT_OPEN_DEVTTY:
			ret = open("/dev/tty", O_RDWR | O_NOCTTY | O_NONBLOCK);
			ret = ret < 0 ? -errno : close(ret);
			break;
		case AGENT_SPAWN:
			ret = agent_cmd_spawn(fd, path, kind, passed, m.value);
			break;
		case AGENT_EXIT:
			_exit(0);
		default:
			ret = -EINVAL;
		}
		if (passed >= 0)
			close(passed);
		send_msg(sock, MSG_ANSWER, ret, 0, -1);
	}
}

static int agent_cmd_spawn(int fd, const char *path, enum tty_kind kind,
			   int sock, unsigned int flags)
{
	pid_t pid;

	if (sock < 0)
		return -EINVAL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		agent_main(sock, fd, path, kind, flags);
	return pid;
}

static struct tty_agent *agent_slot(void)
{
	for (int i = 0; i < MAX_AGENTS; i++)
		if (!agents[i].pid) {
			memset(&agents[i], 0, sizeof(agents[i]));
			agents[i].sock = -1;
			return &agents[i];
		}
	errno = ENOSPC;
	return NULL;
}

/* Waits until pid is reaped, by us or by its parent. */
static int agent_wait_gone(pid_t pid)
{
	const struct timespec step = { .tv_nsec = 10 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < AGENT_TIMEOUT_MS; waited += 10) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno == ECHILD && kill(pid, 0) && errno == ESRCH)
			return 0;
		nanosleep(&step, NULL);
	}
	return -ETIMEDOUT;
}

static void agent_note_signal(struct tty_agent *a, const struct agent_msg *m)
{
	if (a->nsigs < AGENT_MAX_SIGNALS) {
		a->sigs[a->nsigs] = m->value;
		a->codes[a->nsigs++] = m->code;
	}
}

/* Reads messages until an answer comes; notes the signals before it. */
static int agent_answer(struct tty_agent *a)
{
	struct pollfd pfd = { .fd = a->sock, .events = POLLIN };
	struct agent_msg m;
	int ret;

	for (;;) {
		ret = poll(&pfd, 1, AGENT_TIMEOUT_MS);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return ret ? -errno : -ETIMEDOUT;
		ret = recv_msg(a->sock, &m, NULL, 0);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return ret ? -errno : -EPIPE;
		if (m.type == MSG_ANSWER)
			return m.value;
		if (m.type == MSG_SIGNAL)
			agent_note_signal(a, &m);
	}
}

static void agent_kill(struct tty_agent *a)
{
	kill(a->pid, SIGKILL);
	agent_wait_gone(a->pid);
	close(a->sock);
	a->pid = 0;
}

/* An agent's first message answers whether its setup worked. */
static struct tty_agent *agent_started(struct tty_agent *a)
{
	int ret = agent_answer(a);

	if (ret) {
		agent_kill(a);
		errno = ret < 0 ? -ret : EPROTO;
		return NULL;
	}
	return a;
}

struct tty_agent *tty_agent_start(const char *path, enum tty_kind kind,
				  unsigned int flags)
{
	struct tty_agent *a = agent_slot();
	int sv[2];

	if (!a)
		return NULL;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return NULL;
	a->pid = fork();
	if (a->pid < 0) {
		a->pid = 0;
		close(sv[0]);
		close(sv[1]);
		return NULL;
	}
	if (a->pid == 0)
		agent_main(sv[1], -1, path, kind, flags);
	close(sv[1]);
	a->sock = sv[0];
	return agent_started(a);
}

struct tty_agent *tty_agent_spawn(struct tty_agent *parent,
				  unsigned int flags)
{
	struct tty_agent *a = agent_slot();
	int sv[2], ret;

	if (!a)
		return NULL;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return NULL;
	/* Hand the parent the agent's end of the socket with the command. */
	ret = send_msg(parent->sock, AGENT_SPAWN, flags, 0, sv[1]);
	close(sv[1]);
	if (!ret)
		ret = agent_answer(parent);
	if (ret <= 0) {
		close(sv[0]);
		errno = ret < 0 ? -ret : EPROTO;
		return NULL;
	}
	a->pid = ret;
	a->sock = sv[0];
	return agent_started(a);
}

int tty_agent_call(struct tty_agent *a, enum agent_cmd cmd, int arg)
{
	if (send_msg(a->sock, cmd, arg, 0, -1))
		return -errno;
	return agent_answer(a);
}

int tty_agent_exit(struct tty_agent *a)
{
	struct agent_msg m;
	int ret;

	if (send_msg(a->sock, AGENT_EXIT, 0, 0, -1))
		return -errno;
	/*
	 * A task turns zombie in exit_notify(), after disassociate_ctty();
	 * one not ours is released by its parent after that.
	 */
	ret = agent_wait_gone(a->pid);
	if (ret)
		return ret;
	/* Collect what it reported before it went. */
	while (recv_msg(a->sock, &m, NULL, MSG_DONTWAIT) > 0)
		if (m.type == MSG_SIGNAL)
			agent_note_signal(a, &m);
	close(a->sock);
	a->pid = 0;
	return 0;
}

void tty_agents_reap(void)
{
	for (int i = 0; i < MAX_AGENTS; i++)
		if (agents[i].pid)
			kill(agents[i].pid, SIGKILL);
	for (int i = 0; i < MAX_AGENTS; i++)
		if (agents[i].pid)
			agent_kill(&agents[i]);
}

ssize_t tty_read_for(int fd, void *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len && poll(&pfd, 1, timeout_ms) == 1) {
		if (!(pfd.revents & POLLIN))
			break;
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			break;
		got += n;
	}
	return got;
}
