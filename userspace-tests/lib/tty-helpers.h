/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the tty hangup tests: the device under test (a pty
 * slave or a serial port), the three ways to hang it up, and agents:
 * helper processes that hold the tty in a session of their own, do what
 * the test asks and report every signal they get.
 */
#ifndef USERSPACE_TESTS_TTY_HELPERS_H
#define USERSPACE_TESTS_TTY_HELPERS_H

#include <stdbool.h>
#include <sys/types.h>

enum tty_kind {
	TTY_PTY,	/* the slave of a fresh pty pair */
	TTY_SERIAL,	/* $TTY_TEST_SERIAL, /dev/ttyS3 by default */
};

struct tty_dev {
	enum tty_kind kind;
	char path[64];	/* the tty that gets hung up */
	int master;	/* pty master, -1 for a serial port */
};

/*
 * Every tty test runs once on a pty and once on a serial port; select one
 * with "-v pty" or "-v serial". Use after including kselftest_harness.h.
 */
#define TTY_VARIANTS(fixture)						\
	FIXTURE_VARIANT(fixture) { enum tty_kind kind; };		\
	FIXTURE_VARIANT_ADD(fixture, pty) { .kind = TTY_PTY };		\
	FIXTURE_VARIANT_ADD(fixture, serial) { .kind = TTY_SERIAL }

/*
 * In a FIXTURE_SETUP: gets dev ready and opens it as fd, or fails the
 * test saying why. A serial port that is not there fails: never a skip.
 */
#define TTY_DEV_SETUP(dev, kind, fd)					\
	do {								\
		int __ret = tty_dev_init(dev, kind);			\
									\
		ASSERT_EQ(0, __ret)					\
			TH_LOG("%s: %s (TTY_TEST_SERIAL names the "	\
			       "serial port)", (dev)->path,		\
			       strerror(-__ret));			\
		fd = tty_open((dev)->path, kind);			\
		ASSERT_LE(0, fd)					\
			TH_LOG("open %s: %s", (dev)->path,		\
			       strerror(-(fd)));			\
	} while (0)

/*
 * Gets the device ready: a pty pair is allocated, a serial port only
 * named. Returns 0 or -errno; dev->path is set either way, for messages.
 */
int tty_dev_init(struct tty_dev *dev, enum tty_kind kind);
void tty_dev_fini(struct tty_dev *dev);

/*
 * Opens path read-write without making it a controlling tty, in
 * blocking mode. A serial port is opened O_NONBLOCK first so that the
 * open does not wait for carrier, and gets CLOCAL. Returns fd or -errno.
 */
int tty_open(const char *path, enum tty_kind kind);
/* cfmakeraw(): bytes pass unchanged and a read waits for one byte. */
int tty_make_raw(int fd);

enum tty_hangup {
	HANGUP_VHANGUP,		/* vhangup(2) by the session leader */
	HANGUP_TIOCVHANGUP,	/* ioctl(TIOCVHANGUP) on any fd */
	HANGUP_SESSION_EXIT,	/* the session leader exits */
	HANGUP_REVOKEAT,	/* revokeat(2) on the tty's path */
};

const char *tty_hangup_name(enum tty_hangup how);

/*
 * Hangs up the tty at path the way "how" says, from an agent in a new
 * session, so the caller's files of the tty are held in another one.
 * Returns once the hangup is complete, for HANGUP_SESSION_EXIT once the
 * leader is reaped: it turned zombie after disassociate_ctty() ran in
 * do_exit(). Returns 0 or -errno.
 */
int tty_hangup_from_new_session(const char *path, enum tty_kind kind,
				enum tty_hangup how);

/* Agents. */
#define AGENT_SETSID	0x1	/* start a session of its own */
#define AGENT_CTTY	0x2	/* with the tty as its controlling tty */
#define AGENT_SETPGRP	0x4	/* start a process group of its own */

enum agent_cmd {
	AGENT_PING,		/* -> 0 */
	AGENT_VHANGUP,		/* vhangup() -> 0 or -errno */
	AGENT_TIOCVHANGUP,	/* ioctl(fd, TIOCVHANGUP) -> 0 or -errno */
	AGENT_SET_FG,		/* tcsetpgrp(fd, arg) -> 0 or -errno */
	AGENT_GETSID,		/* ioctl(fd, TIOCGSID) -> sid or -errno */
	AGENT_OPEN_DEVTTY,	/* open("/dev/tty") -> 0 or -errno */
	AGENT_REVOKEAT,		/* revokeat() of the tty's path -> 0 or -errno */
	AGENT_SPAWN,		/* internal: fork a new agent */
	AGENT_EXIT,		/* _exit(0), no answer */
};

#define AGENT_MAX_SIGNALS 16

struct tty_agent {
	pid_t pid;
	int sock;		/* the test's end of the agent's socket */
	int sigs[AGENT_MAX_SIGNALS];	/* handled signals, in order */
	int codes[AGENT_MAX_SIGNALS];	/* their si_code */
	int nsigs;
};

/*
 * Forks an agent that opens path (O_NOCTTY) and sets itself up as flags
 * say. The caller becomes a child subreaper, so that agents whose parent
 * died are reaped by tty_agents_reap(). Returns the agent or NULL with
 * errno set.
 */
struct tty_agent *tty_agent_start(const char *path, enum tty_kind kind,
				  unsigned int flags);
/*
 * The same, forked by parent: the new agent is in parent's session and
 * uses parent's open file of the tty instead of opening one.
 */
struct tty_agent *tty_agent_spawn(struct tty_agent *parent,
				  unsigned int flags);
/*
 * Has the agent run cmd; returns its answer. Signals the agent handled
 * before it answered are appended to a->sigs: a signal sent before the
 * call began is in there. Returns -ETIMEDOUT if the agent does not
 * answer within 10 s, -EPIPE if it died.
 */
int tty_agent_call(struct tty_agent *a, enum agent_cmd cmd, int arg);
/* Has the agent exit and waits until it is reaped. Returns 0 or -errno. */
int tty_agent_exit(struct tty_agent *a);
/* Kills and reaps every agent still there. */
void tty_agents_reap(void);

/* Reads all that arrives at fd within timeout_ms; returns count or -errno */
ssize_t tty_read_for(int fd, void *buf, size_t len, int timeout_ms);

#endif
