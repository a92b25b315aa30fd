// SPDX-License-Identifier: GPL-2.0
/*
 * Who is signalled when a tty is hung up. The tty is the controlling tty
 * of a session whose leader L has a child F in the foreground process
 * group and a child B in L's own (background) group; H holds the tty in
 * a session of its own. Each of them reports every signal it handles.
 *
 * vhangup() by L and TIOCVHANGUP by H go through __tty_hangup(tty, 0):
 * tty_signal_session_leader() sends L SIGHUP then SIGCONT, and nobody
 * else anything. The session loses its controlling tty.
 *
 * L's exit: disassociate_ctty(1) sends the foreground group SIGHUP alone,
 * through tty_vhangup_session() -> tty_signal_session_leader(tty, 1) on a
 * serial port, directly on a pty (which it does not hang up).
 *
 * The order is the order the handlers ran in, one at a time (agents block
 * all signals in a handler). When both signals are pending together the
 * lower number, SIGHUP, is taken first whatever the order they were sent
 * in; SIGCONT first shows only if the agent ran in between.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tty-helpers.h"

FIXTURE(signals)
{
	struct tty_dev dev;
	int fd;
	struct tty_agent *leader, *fg, *bg, *other;
};

TTY_VARIANTS(signals);

/*
 * Starts L, F, B and H as above and checks the session has the tty as
 * its controlling tty, F's group in the foreground.
 */
FIXTURE_SETUP(signals)
{
	/* Our own file keeps the tty from going away in between. */
	TTY_DEV_SETUP(&self->dev, variant->kind, self->fd);

	self->leader = tty_agent_start(self->dev.path, variant->kind,
				       AGENT_SETSID | AGENT_CTTY);
	ASSERT_NE(NULL, self->leader) TH_LOG("leader: %s", strerror(errno));
	self->fg = tty_agent_spawn(self->leader, AGENT_SETPGRP);
	ASSERT_NE(NULL, self->fg) TH_LOG("fg: %s", strerror(errno));
	self->bg = tty_agent_spawn(self->leader, 0);
	ASSERT_NE(NULL, self->bg) TH_LOG("bg: %s", strerror(errno));
	self->other = tty_agent_start(self->dev.path, variant->kind,
				      AGENT_SETSID);
	ASSERT_NE(NULL, self->other) TH_LOG("other: %s", strerror(errno));

	ASSERT_EQ(0, tty_agent_call(self->leader, AGENT_SET_FG,
				    self->fg->pid));
	ASSERT_EQ(self->leader->pid,
		  tty_agent_call(self->fg, AGENT_GETSID, 0));
	ASSERT_EQ(0, tty_agent_call(self->bg, AGENT_OPEN_DEVTTY, 0));
	ASSERT_EQ(-ENXIO, tty_agent_call(self->other, AGENT_OPEN_DEVTTY, 0));
	ASSERT_EQ(0, self->leader->nsigs + self->fg->nsigs +
		     self->bg->nsigs + self->other->nsigs);
}

FIXTURE_TEARDOWN(signals)
{
	tty_agents_reap();
	close(self->fd);
	tty_dev_fini(&self->dev);
}

/* a must have handled n signals so far (n <= 2): first, then second. */
static void expect_signals(struct __test_metadata *_metadata,
			   struct tty_agent *a, const char *who,
			   int n, int first, int second)
{
	char seen[128] = "";
	int len = 0;

	if (a->pid)
		EXPECT_EQ(0, tty_agent_call(a, AGENT_PING, 0));
	for (int i = 0; i < a->nsigs; i++)
		len += snprintf(seen + len, sizeof(seen) - len, " %s/%d",
				sigabbrev_np(a->sigs[i]) ?: "?", a->codes[i]);
	EXPECT_EQ(n, a->nsigs) TH_LOG("%s got:%s", who, seen);
	if (n > 0 && a->nsigs > 0)
		EXPECT_EQ(first, a->sigs[0]) TH_LOG("%s got:%s", who, seen);
	if (n > 1 && a->nsigs > 1)
		EXPECT_EQ(second, a->sigs[1]) TH_LOG("%s got:%s", who, seen);
	/* All from the kernel: SEND_SIG_PRIV, also through kill_pgrp(). */
	for (int i = 0; i < a->nsigs; i++)
		EXPECT_EQ(SI_KERNEL, a->codes[i])
			TH_LOG("%s got:%s", who, seen);
}

/* After the hangup the session has no controlling tty left. */
static void expect_no_ctty(struct __test_metadata *_metadata,
			   FIXTURE_DATA(signals) *self)
{
	EXPECT_EQ(-ENXIO, tty_agent_call(self->fg, AGENT_OPEN_DEVTTY, 0));
	EXPECT_EQ(-ENXIO, tty_agent_call(self->bg, AGENT_OPEN_DEVTTY, 0));
}

/*
 * vhangup() and TIOCVHANGUP: L got SIGHUP then SIGCONT, nobody else got
 * anything, and the whole session lost its controlling tty.
 */
static void expect_leader_alone_signalled(struct __test_metadata *_metadata,
					  FIXTURE_DATA(signals) *self)
{
	expect_signals(_metadata, self->leader, "leader", 2, SIGHUP, SIGCONT);
	expect_signals(_metadata, self->fg, "fg", 0, 0, 0);
	expect_signals(_metadata, self->bg, "bg", 0, 0, 0);
	expect_signals(_metadata, self->other, "other", 0, 0, 0);
	EXPECT_EQ(-ENXIO, tty_agent_call(self->leader, AGENT_OPEN_DEVTTY, 0));
	expect_no_ctty(_metadata, self);
}

TEST_F(signals, vhangup)
{
	/*
	 * The signals are sent before vhangup() returns, so L handles them
	 * before it answers: the order is the order of the handlers.
	 */
	ASSERT_EQ(0, tty_agent_call(self->leader, AGENT_VHANGUP, 0));
	expect_leader_alone_signalled(_metadata, self);
}

TEST_F(signals, tiocvhangup)
{
	/* Sent before H's ioctl returns: pending on L when we ask it. */
	ASSERT_EQ(0, tty_agent_call(self->other, AGENT_TIOCVHANGUP, 0));
	expect_leader_alone_signalled(_metadata, self);
}

TEST_F(signals, session_leader_exit)
{
	/* Sent in do_exit() before L became a zombie. */
	ASSERT_EQ(0, tty_agent_exit(self->leader));
	expect_signals(_metadata, self->fg, "fg", 1, SIGHUP, 0);
	expect_signals(_metadata, self->bg, "bg", 0, 0, 0);
	expect_signals(_metadata, self->other, "other", 0, 0, 0);
	expect_no_ctty(_metadata, self);
}

/*
 * The SIGCONT is what lets a stopped leader see its SIGHUP: the hangup
 * resumes it, and its handlers run, SIGHUP first.
 */
TEST_F(signals, tiocvhangup_continues_stopped_leader)
{
	siginfo_t si = { 0 };

	ASSERT_EQ(0, kill(self->leader->pid, SIGSTOP));
	ASSERT_EQ(0, waitid(P_PID, self->leader->pid, &si,
			    WSTOPPED | WNOWAIT));
	ASSERT_EQ(CLD_STOPPED, si.si_code);

	ASSERT_EQ(0, tty_agent_call(self->other, AGENT_TIOCVHANGUP, 0));
	/* It was resumed by the time the ioctl returned. */
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, waitid(P_PID, self->leader->pid, &si,
			    WCONTINUED | WNOHANG));
	EXPECT_EQ(CLD_CONTINUED, si.si_code)
		TH_LOG("the leader was not continued");
	expect_signals(_metadata, self->leader, "leader", 2, SIGHUP, SIGCONT);
	expect_signals(_metadata, self->fg, "fg", 0, 0, 0);
	expect_signals(_metadata, self->other, "other", 0, 0, 0);
}

TEST_HARNESS_MAIN
