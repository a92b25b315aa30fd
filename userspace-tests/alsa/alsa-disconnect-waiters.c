// SPDX-License-Identifier: GPL-2.0
/*
 * Calls asleep on a sound card when it goes away: each returns as it did
 * in Linux 6.12. Each sleeps in a thread of the test; the test checks it
 * really sleeps in that call (state S inside that system call, in
 * /proc/self/task/<tid>/{stat,syscall}), unbinds snd-dummy from its
 * driver and wants every call back within WAKE_TIMEOUT_MS with:
 *
 *	write, nothing written yet	-1/EBADFD: the card's kick (dev_kick)
 *	read, nothing read yet		sets SNDRV_PCM_STATE_DISCONNECTED and
 *					wakes runtime->tsleep; wait_for_avail()
 *					turns that state into -EBADFD
 *	write, part written		what was written: __snd_pcm_lib_xfer()
 *	read, part read			returns "xfer > 0 ? xfer : err"
 *	SNDRV_PCM_IOCTL_DRAIN		-1/ENODEV: snd_pcm_drain() wakes on
 *					runtime->sleep, sees card->shutdown
 *	poll, epoll on a PCM		POLLERR / EPOLLERR: woken on
 *					runtime->sleep, the next ->poll is
 *					the revoked one
 *	open, all substreams busy	-1/ENODEV: snd_pcm_open() is woken on
 *					pcm->open_wait, sees card->shutdown
 *	read on a subscribed control	-1/ENODEV: snd_ctl_read() is woken on
 *					ctl->change_sleep, sees card->shutdown
 *	poll on a control		POLLERR
 *	a control with O_ASYNC		SIGIO, si_code POLL_ERR, si_band POLLERR
 *	read of a PCM timer of the card	-1/ENODEV: /dev/snd/timer is no file of
 *					the card; the timer's disconnect wakes
 *					it. Its open instance holds the card:
 *					the unbind returns at its close
 *					(the control's first kick ->
 *					snd_kill_fasync(..., SIGIO, POLL_ERR))
 *	WRITEI_FRAMES, READI_FRAMES	-1/EFAULT: the revoke interrupts the
 *	with the argument on a page	fault of the copy, which gives up
 *	that a userfaultfd never serves	(the series only)
 *
 * The next call on each file is refused by the revoke: ENODEV. The
 * unbind returns once the calls are out and the files released, open or
 * not.
 *
 * All of that is what Linux 6.12 answers too, but for the unbind: 6.12's
 * snd_card_free() waits until every file of the card is closed. pcm, ctl
 * and timer close the files before they wait for the unbind and pass on
 * 6.12 as well (base.suite runs them there);
 * unbind_returns_with_pcm_files_open and unbind_returns_with_ctl_files_open
 * are pcm and ctl wanting the unbind back, and the card back, while the
 * files are still open: the series only.
 *
 * To keep a stream from draining before the card goes, the PCM streams
 * are slow: U8 mono at 5500 Hz in the dummy's largest buffer, 64 KiB, so
 * 11.9 s. A write sleeps with nothing written only if it finds no room at
 * all, and a running dummy stream frees room all the time (its pointer
 * follows the clock), so that case is a prepared stream, not started,
 * with a full buffer: wait_for_avail() sleeps there until its timeout
 * (1.1 buffer times, then EIO). The running cases write or read more
 * than there is room for, after a pause that guarantees some room.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"
#include "uffd-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define SLEEP_TIMEOUT_MS 10000	/* for a thread to fall asleep */
#define GONE_TIMEOUT_MS 10000
#define MAX_FILES 64

/* U8 mono, 5500 Hz (the dummy's lowest rate), 64 KiB: 11.9 s a buffer */
static const struct alsa_pcm_config slow_config = {
	.access = SNDRV_PCM_ACCESS_RW_INTERLEAVED,
	.format = SNDRV_PCM_FORMAT_U8,
	.channels = 1,
	.rate = 5500,
	.period_frames = 8192,
	.buffer_frames = 65536,
};

enum sleep_call {
	CALL_WRITE,
	CALL_READ,
	CALL_DRAIN,
	CALL_PPOLL,
	CALL_EPOLL,
	CALL_OPEN,
	CALL_WRITEI,	/* SNDRV_PCM_IOCTL_WRITEI_FRAMES, buf its argument */
	CALL_READI,	/* SNDRV_PCM_IOCTL_READI_FRAMES, buf its argument */
};

struct sleeper {
	const char *what;
	enum sleep_call call;
	int fd;			/* for CALL_EPOLL the epoll fd */
	void *buf;
	size_t len;
	short events;
	const char *path;	/* CALL_OPEN */
	pthread_t thread;
	bool started;
	pid_t tid;		/* set by the thread */
	int done;		/* set by the thread once the call returned */
	long ret;
	int err;
	short revents;
	unsigned int epevents;
	long long end_ms;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	struct pollfd pfd = { .fd = s->fd, .events = s->events };
	struct timespec limit = { .tv_sec = 60 };
	struct epoll_event ev = { 0 };

	__atomic_store_n(&s->tid, gettid(), __ATOMIC_RELEASE);
	/* Raw system calls, so that /proc/.../syscall shows these numbers */
	switch (s->call) {
	case CALL_WRITE:
		s->ret = syscall(SYS_write, (long)s->fd, s->buf, s->len);
		break;
	case CALL_READ:
		s->ret = syscall(SYS_read, (long)s->fd, s->buf, s->len);
		break;
	case CALL_DRAIN:
		s->ret = syscall(SYS_ioctl, (long)s->fd,
				 (unsigned long)SNDRV_PCM_IOCTL_DRAIN, 0L);
		break;
	case CALL_PPOLL:
		s->ret = syscall(SYS_ppoll, &pfd, 1L, &limit, NULL, 8L);
		s->revents = pfd.revents;
		break;
	case CALL_EPOLL:
		s->ret = syscall(SYS_epoll_wait, (long)s->fd, &ev, 1L, 60000L);
		s->epevents = ev.events;
		break;
	case CALL_OPEN:
		s->ret = syscall(SYS_openat, (long)AT_FDCWD, s->path,
				 (long)(O_RDWR | O_CLOEXEC));
		break;
	case CALL_WRITEI:
		s->ret = syscall(SYS_ioctl, (long)s->fd,
				 (unsigned long)SNDRV_PCM_IOCTL_WRITEI_FRAMES,
				 s->buf);
		break;
	case CALL_READI:
		s->ret = syscall(SYS_ioctl, (long)s->fd,
				 (unsigned long)SNDRV_PCM_IOCTL_READI_FRAMES,
				 s->buf);
		break;
	}
	s->err = s->ret < 0 ? errno : 0;
	s->end_ms = now_ms();
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static long sleeper_syscall(const struct sleeper *s, long long *arg0)
{
	*arg0 = s->fd;
	switch (s->call) {
	case CALL_WRITE:
		return SYS_write;
	case CALL_READ:
		return SYS_read;
	case CALL_DRAIN:
	case CALL_WRITEI:
	case CALL_READI:
		return SYS_ioctl;
	case CALL_PPOLL:
		*arg0 = ANY_ARG;
		return SYS_ppoll;
	case CALL_EPOLL:
		return SYS_epoll_wait;
	case CALL_OPEN:
		*arg0 = AT_FDCWD;
		return SYS_openat;
	}
	return -1;
}

/* Starts s and waits until it sleeps in its call: 0 or -errno. */
static int sleeper_start(struct sleeper *s)
{
	long long end = now_ms() + SLEEP_TIMEOUT_MS, arg0;
	long nr = sleeper_syscall(s, &arg0);
	int ret;

	ret = pthread_create(&s->thread, NULL, sleeper_main, s);
	if (ret)
		return -ret;
	s->started = true;
	while (!__atomic_load_n(&s->tid, __ATOMIC_ACQUIRE)) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(1000);
	}
	ret = wait_asleep_in(s->tid, nr, arg0, SLEEP_TIMEOUT_MS);
	if (ret)
		return ret;
	return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) ? -EINTR : 0;
}

/* Joins s if it returns before deadline (CLOCK_REALTIME ms): true if so. */
static bool sleeper_join(struct sleeper *s, const struct timespec *deadline)
{
	if (!s->started)
		return false;
	if (pthread_timedjoin_np(s->thread, NULL, deadline))
		return false;
	s->started = false;
	return true;
}

enum {
	S_WRITE_NONE,	/* write, nothing written: prepared, full */
	S_WRITE_PART,	/* write, part written: running */
	S_READ_NONE,	/* read, nothing read: prepared capture */
	S_READ_PART,	/* read, part read: running capture */
	S_DRAIN,
	S_PPOLL,
	S_EPOLL,
	S_OPEN,
	S_CTL_READ,
	S_CTL_PPOLL,
	S_TIMER_READ,
	S_WRITE_FAULT,	/* WRITEI_FRAMES, faulting on a page never served */
	S_READ_FAULT,	/* READI_FRAMES, the same */
	NR_SLEEPERS,
};

FIXTURE(sleepers)
{
	struct alsa_keeper keeper;
	int card;
	int files[MAX_FILES];	/* every fd of the card, to close */
	int nfiles;
	int epfd;
	struct sleeper s[NR_SLEEPERS];
	bool stuck;		/* a sleeper never came back */
	struct uffd_page page;
};

FIXTURE_SETUP(sleepers)
{
	self->nfiles = 0;
	self->epfd = -1;
	self->stuck = false;
	memset(self->s, 0, sizeof(self->s));
	memset(&self->page, 0, sizeof(self->page));
	/* Before any file of the card is open: see alsa-helpers.h */
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_dummy, self->card);
}

static void close_all(FIXTURE_DATA(sleepers) *self)
{
	int i;

	for (i = 0; i < self->nfiles; i++)
		if (self->files[i] >= 0)
			close(self->files[i]);
	self->nfiles = 0;
	if (self->epfd >= 0)
		close(self->epfd);
	self->epfd = -1;
	for (i = 0; i < NR_SLEEPERS; i++)
		if (self->s[i].call == CALL_OPEN &&
		    __atomic_load_n(&self->s[i].done, __ATOMIC_ACQUIRE) &&
		    self->s[i].ret >= 0) {
			close(self->s[i].ret);
			self->s[i].ret = -1;
		}
}

FIXTURE_TEARDOWN(sleepers)
{
	struct timespec now;
	int i;

	/* A fault that the unbind did not end goes on now. */
	uffd_page_release(&self->page);
	close_all(self);
	alsa_deadline_in(&now, 0);
	for (i = 0; i < NR_SLEEPERS; i++)
		if (self->s[i].started && !sleeper_join(&self->s[i], &now))
			self->stuck = true;
	/*
	 * A sleeper still in the kernel holds its file, and so the unbind,
	 * until this process exits: then the keeper rebinds on its own.
	 */
	alsa_keeper_stop(&self->keeper, self->stuck ? 0 : 20000);
	uffd_page_fini(&self->page);
}

static int keep(FIXTURE_DATA(sleepers) *self, int fd)
{
	if (fd >= 0 && self->nfiles < MAX_FILES)
		self->files[self->nfiles++] = fd;
	return fd;
}

#define OPEN_PCM(fd, capture, flags)					\
	do {								\
		fd = keep(self, alsa_pcm_open(self->card, 0, capture,	\
					      flags));			\
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-(fd)));	\
	} while (0)

/* Sets a slow stream up on fd; cfg gets what the kernel chose. */
#define SETUP_SLOW(fd, cfg, avail_min, start, stop)			\
	do {								\
		cfg = slow_config;					\
		ASSERT_EQ(0, alsa_pcm_hw_params(fd, &cfg));		\
		ASSERT_EQ(slow_config.buffer_frames, cfg.buffer_frames);\
		ASSERT_EQ(0, alsa_pcm_sw_params(fd, avail_min, start,	\
						stop));			\
		ASSERT_EQ(0, ioctl(fd, SNDRV_PCM_IOCTL_PREPARE));	\
	} while (0)

/* Fills the buffer of a prepared playback stream. */
#define FILL(fd, cfg)							\
	ASSERT_EQ((ssize_t)((cfg).buffer_frames * (cfg).frame_bytes),	\
		  alsa_pcm_write_silence(fd, &(cfg), (cfg).buffer_frames))

#define START_SLEEPER(i)						\
	do {								\
		int __ret = sleeper_start(&self->s[i]);			\
									\
		ASSERT_EQ(0, __ret)					\
			TH_LOG("%s does not sleep in its call: %s",	\
			       self->s[i].what, strerror(-__ret));	\
	} while (0)

/* Unbinds the card; every sleeper must come back within WAKE_TIMEOUT_MS. */
static void take_away_and_join(struct __test_metadata *_metadata,
			       FIXTURE_DATA(sleepers) *self, int first,
			       int last, long long *removed_ms)
{
	struct timespec deadline;
	int i;

	for (i = first; i <= last; i++)
		ASSERT_FALSE(__atomic_load_n(&self->s[i].done,
					     __ATOMIC_ACQUIRE))
			TH_LOG("%s returned before the card went: %ld/%s",
			       self->s[i].what, self->s[i].ret,
			       strerror(self->s[i].err));
	*removed_ms = now_ms();
	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	alsa_deadline_in(&deadline, WAKE_TIMEOUT_MS);
	for (i = first; i <= last; i++) {
		if (sleeper_join(&self->s[i], &deadline))
			continue;
		self->stuck = true;
		EXPECT_TRUE(false)
			TH_LOG("%s still asleep %d ms after the unbind",
			       self->s[i].what, WAKE_TIMEOUT_MS);
	}
	ASSERT_FALSE(self->stuck);
	ASSERT_TRUE(alsa_card_wait_gone(self->card, GONE_TIMEOUT_MS));
	for (i = first; i <= last; i++)
		EXPECT_GT(WAKE_TIMEOUT_MS, self->s[i].end_ms - *removed_ms)
			TH_LOG("%s came back late", self->s[i].what);
}

#define EXPECT_SLEEPER(i, want_ret, want_err)				\
	do {								\
		EXPECT_EQ(want_ret, self->s[i].ret)			\
			TH_LOG("%s returned %ld (%s)", self->s[i].what,	\
			       self->s[i].ret, strerror(self->s[i].err));\
		if (self->s[i].ret == -1)				\
			EXPECT_EQ(want_err, self->s[i].err)		\
				TH_LOG("%s: %s, expected %s",		\
				       self->s[i].what,			\
				       strerror(self->s[i].err),	\
				       strerror(want_err));		\
	} while (0)

static unsigned long appl_ptr(int fd)
{
	struct snd_pcm_status st;

	memset(&st, 0, sizeof(st));
	if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st))
		return ~0UL;
	return st.appl_ptr;
}

/*
 * After the checks, with files_open: the unbind returned while the files
 * are open, and the card comes back before they are closed. Without: the
 * files are closed first, and the unbind may have waited for that.
 */
static void bring_card_back(struct __test_metadata *_metadata,
			    FIXTURE_DATA(sleepers) *self, bool files_open)
{
	if (files_open) {
		EXPECT_UNBIND_RETURNED(&self->keeper, GONE_TIMEOUT_MS);
		ASSERT_CARD_RECOVERS(&self->keeper, self->card);
		close_all(self);
	} else {
		close_all(self);
		ASSERT_CARD_RECOVERS(&self->keeper, self->card);
	}
}

static void pcm_sleepers(struct __test_metadata *_metadata,
			 FIXTURE_DATA(sleepers) *self, bool files_open)
{
	static unsigned char wbuf[2 * 65536], rbuf[2][2 * 65536];
	struct alsa_pcm_config cfg, rcfg;
	struct epoll_event ev = { .events = EPOLLOUT };
	int w_none, w_part, r_none, r_part, drain, polled, fd;
	unsigned long w_moved, r_moved;
	long long t_fill, window_ms, removed_ms;
	char path[64];
	int i;

	/* A prepared stream with a full buffer, never to start by itself */
	OPEN_PCM(w_none, false, 0);
	SETUP_SLOW(w_none, cfg, cfg.period_frames, ALSA_NEVER,
		   cfg.buffer_frames);
	FILL(w_none, cfg);
	ASSERT_EQ(SNDRV_PCM_STATE_PREPARED, alsa_pcm_state(w_none));

	/* A prepared capture stream, never to start by itself */
	OPEN_PCM(r_none, true, 0);
	SETUP_SLOW(r_none, rcfg, rcfg.period_frames, ALSA_NEVER,
		   rcfg.buffer_frames);

	/* Running streams, full, waking a writer or poller only when empty */
	t_fill = now_ms();
	window_ms = cfg.buffer_frames * 1000LL / cfg.rate;
	OPEN_PCM(w_part, false, 0);
	SETUP_SLOW(w_part, cfg, cfg.buffer_frames, cfg.buffer_frames,
		   ALSA_NEVER);
	FILL(w_part, cfg);
	OPEN_PCM(drain, false, 0);
	SETUP_SLOW(drain, cfg, cfg.buffer_frames, cfg.buffer_frames,
		   cfg.buffer_frames);
	FILL(drain, cfg);
	OPEN_PCM(polled, false, 0);
	SETUP_SLOW(polled, cfg, cfg.buffer_frames, cfg.buffer_frames,
		   cfg.buffer_frames);
	FILL(polled, cfg);
	OPEN_PCM(r_part, true, 0);
	SETUP_SLOW(r_part, rcfg, rcfg.buffer_frames, ALSA_NEVER, ALSA_NEVER);
	ASSERT_EQ(0, ioctl(r_part, SNDRV_PCM_IOCTL_START));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(w_part));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(drain));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(polled));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(r_part));

	/* Every other playback substream taken: a blocking open sleeps */
	for (;;) {
		fd = alsa_pcm_open(self->card, 0, false, O_NONBLOCK);
		if (fd < 0)
			break;
		keep(self, fd);
	}
	ASSERT_EQ(-EBUSY, fd);

	self->epfd = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, self->epfd);
	ASSERT_EQ(0, epoll_ctl(self->epfd, EPOLL_CTL_ADD, polled, &ev));

	/* Room in the running streams: the part cases move some data */
	usleep(500000);

	self->s[S_WRITE_NONE] = (struct sleeper){
		.what = "write, nothing written", .call = CALL_WRITE,
		.fd = w_none, .buf = wbuf,
		.len = cfg.period_frames * cfg.frame_bytes };
	self->s[S_WRITE_PART] = (struct sleeper){
		.what = "write, part written", .call = CALL_WRITE,
		.fd = w_part, .buf = wbuf,
		.len = 2 * cfg.buffer_frames * cfg.frame_bytes };
	self->s[S_READ_NONE] = (struct sleeper){
		.what = "read, nothing read", .call = CALL_READ,
		.fd = r_none, .buf = rbuf[0],
		.len = rcfg.period_frames * rcfg.frame_bytes };
	self->s[S_READ_PART] = (struct sleeper){
		.what = "read, part read", .call = CALL_READ,
		.fd = r_part, .buf = rbuf[1],
		.len = 2 * rcfg.buffer_frames * rcfg.frame_bytes };
	self->s[S_DRAIN] = (struct sleeper){
		.what = "drain", .call = CALL_DRAIN, .fd = drain };
	self->s[S_PPOLL] = (struct sleeper){
		.what = "ppoll", .call = CALL_PPOLL, .fd = polled,
		.events = POLLOUT };
	self->s[S_EPOLL] = (struct sleeper){
		.what = "epoll_wait", .call = CALL_EPOLL, .fd = self->epfd };
	alsa_pcm_path(path, sizeof(path), self->card, 0, false);
	self->s[S_OPEN] = (struct sleeper){
		.what = "open", .call = CALL_OPEN, .fd = -1, .path = path };
	ASSERT_LE(2 * cfg.buffer_frames * cfg.frame_bytes, sizeof(wbuf));
	ASSERT_LE(2 * rcfg.buffer_frames * rcfg.frame_bytes, sizeof(rbuf[1]));

	for (i = S_WRITE_NONE; i <= S_OPEN; i++)
		START_SLEEPER(i);

	/* What the part cases moved before falling asleep */
	w_moved = appl_ptr(w_part) - cfg.buffer_frames;
	r_moved = appl_ptr(r_part);
	ASSERT_LT(0, (long)w_moved);
	ASSERT_GT(cfg.buffer_frames, w_moved);
	ASSERT_LT(0, (long)r_moved);
	ASSERT_GT(rcfg.buffer_frames, r_moved);

	/* The streams must still be far from empty when the card goes */
	ASSERT_GT(window_ms - 3000, now_ms() - t_fill)
		TH_LOG("setup took %lld ms of a %lld ms buffer",
		       now_ms() - t_fill, window_ms);
	EXPECT_EQ(cfg.buffer_frames + w_moved, appl_ptr(w_part))
		TH_LOG("part writer woke before the card went");

	take_away_and_join(_metadata, self, S_WRITE_NONE, S_OPEN, &removed_ms);

	EXPECT_SLEEPER(S_WRITE_NONE, -1, EBADFD);
	EXPECT_SLEEPER(S_WRITE_PART, (long)(w_moved * cfg.frame_bytes), 0);
	EXPECT_SLEEPER(S_READ_NONE, -1, EBADFD);
	EXPECT_SLEEPER(S_READ_PART, (long)(r_moved * rcfg.frame_bytes), 0);
	EXPECT_SLEEPER(S_DRAIN, -1, ENODEV);
	EXPECT_SLEEPER(S_PPOLL, 1, 0);
	EXPECT_EQ(POLLERR, self->s[S_PPOLL].revents);
	EXPECT_SLEEPER(S_EPOLL, 1, 0);
	EXPECT_EQ((unsigned int)EPOLLERR, self->s[S_EPOLL].epevents);
	EXPECT_SLEEPER(S_OPEN, -1, ENODEV);

	/* The next calls on the same files */
	EXPECT_ERRNO(ENODEV, write(w_none, wbuf, cfg.frame_bytes));
	EXPECT_ERRNO(ENODEV, write(w_part, wbuf, cfg.frame_bytes));
	EXPECT_ERRNO(ENODEV, read(r_none, rbuf[0], rcfg.frame_bytes));
	EXPECT_ERRNO(ENODEV, read(r_part, rbuf[1], rcfg.frame_bytes));
	EXPECT_ERRNO(ENODEV, ioctl(drain, SNDRV_PCM_IOCTL_DRAIN));

	bring_card_back(_metadata, self, files_open);
}

TEST_F_TIMEOUT(sleepers, pcm, 90)
{
	pcm_sleepers(_metadata, self, false);
}

TEST_F_TIMEOUT(sleepers, unbind_returns_with_pcm_files_open, 90)
{
	pcm_sleepers(_metadata, self, true);
}

static void ctl_sleepers(struct __test_metadata *_metadata,
			 FIXTURE_DATA(sleepers) *self, bool files_open)
{
	static struct snd_ctl_event event;
	int reader, poller, async, on = 1;
	long long removed_ms;
	struct timespec limit;
	siginfo_t si;
	sigset_t set;

	reader = keep(self, alsa_ctl_open(self->card, 0));
	ASSERT_LE(0, reader);
	poller = keep(self, alsa_ctl_open(self->card, 0));
	ASSERT_LE(0, poller);
	async = keep(self, alsa_ctl_open(self->card, 0));
	ASSERT_LE(0, async);
	ASSERT_EQ(0, ioctl(reader, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &on));
	ASSERT_EQ(0, ioctl(poller, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &on));

	/* SIGIO for async, with its siginfo, to be taken by sigtimedwait */
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(0, pthread_sigmask(SIG_BLOCK, &set, NULL));
	ASSERT_EQ(0, fcntl(async, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(async, F_SETSIG, SIGIO));
	ASSERT_EQ(0, fcntl(async, F_SETFL, fcntl(async, F_GETFL) | O_ASYNC));

	self->s[S_CTL_READ] = (struct sleeper){
		.what = "control read", .call = CALL_READ, .fd = reader,
		.buf = &event, .len = sizeof(event) };
	self->s[S_CTL_PPOLL] = (struct sleeper){
		.what = "control ppoll", .call = CALL_PPOLL, .fd = poller,
		.events = POLLIN };
	START_SLEEPER(S_CTL_READ);
	START_SLEEPER(S_CTL_PPOLL);
	limit.tv_sec = 0;
	limit.tv_nsec = 0;
	ASSERT_EQ(-1, sigtimedwait(&set, &si, &limit))
		TH_LOG("SIGIO before the card went");

	take_away_and_join(_metadata, self, S_CTL_READ, S_CTL_PPOLL,
			   &removed_ms);

	EXPECT_SLEEPER(S_CTL_READ, -1, ENODEV);
	EXPECT_SLEEPER(S_CTL_PPOLL, 1, 0);
	EXPECT_EQ(POLLERR, self->s[S_CTL_PPOLL].revents);

	limit.tv_sec = WAKE_TIMEOUT_MS / 1000;
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(SIGIO, sigtimedwait(&set, &si, &limit))
		TH_LOG("no SIGIO: %s", strerror(errno));
	EXPECT_EQ(POLL_ERR, si.si_code);
	EXPECT_EQ(async, si.si_fd);
	EXPECT_EQ(POLLERR, si.si_band);

	/* The next calls on the same files */
	EXPECT_ERRNO(ENODEV, read(reader, &event, sizeof(event)));
	EXPECT_ERRNO(ENODEV, ioctl(poller, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS,
				   &on));

	bring_card_back(_metadata, self, files_open);
}

TEST_F_TIMEOUT(sleepers, ctl, 60)
{
	ctl_sleepers(_metadata, self, false);
}

TEST_F_TIMEOUT(sleepers, unbind_returns_with_ctl_files_open, 60)
{
	ctl_sleepers(_metadata, self, true);
}

TEST_F_TIMEOUT(sleepers, timer, 60)
{
	static struct snd_timer_read tread;
	struct snd_timer_select sel;
	long long removed_ms;
	int timer;

	timer = keep(self, open("/dev/snd/timer", O_RDONLY | O_CLOEXEC));
	ASSERT_LE(0, timer) TH_LOG("/dev/snd/timer: %s", strerror(errno));
	memset(&sel, 0, sizeof(sel));
	sel.id.dev_class = SNDRV_TIMER_CLASS_PCM;
	sel.id.dev_sclass = SNDRV_TIMER_SCLASS_NONE;
	sel.id.card = self->card;
	sel.id.device = 0;
	sel.id.subdevice = 0;	/* playback substream 0 */
	ASSERT_EQ(0, ioctl(timer, SNDRV_TIMER_IOCTL_SELECT, &sel))
		TH_LOG("select the PCM timer: %s", strerror(errno));

	self->s[S_TIMER_READ] = (struct sleeper){
		.what = "timer read", .call = CALL_READ, .fd = timer,
		.buf = &tread, .len = sizeof(tread) };
	START_SLEEPER(S_TIMER_READ);

	take_away_and_join(_metadata, self, S_TIMER_READ, S_TIMER_READ,
			   &removed_ms);
	EXPECT_SLEEPER(S_TIMER_READ, -1, ENODEV);

	close_all(self);
	EXPECT_UNBIND_RETURNED(&self->keeper, GONE_TIMEOUT_MS);
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
}

/*
 * alsa-lib's write and read, SNDRV_PCM_IOCTL_WRITEI_FRAMES and
 * READI_FRAMES, whose struct snd_xferi is on a page that a userfaultfd
 * never serves, sleep in the page fault of its copy, inside the method.
 * (A write() or read() would not do: snd-dummy's fake buffer copies no
 * data.) The unbind interrupts the faults, which give up: -1/EFAULT, and
 * the unbind returns with the files open. (6.12's snd_card_free() waits
 * for the files to be closed, and the ioctls for their page.)
 */
TEST_F_TIMEOUT(sleepers, unbind_ends_calls_faulting_on_their_argument, 60)
{
	struct alsa_pcm_config cfg;
	long long removed_ms;
	int play, capture, ret;

	ret = uffd_page_init(&self->page);
	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));
	/* Prepared: each copies its argument at once */
	OPEN_PCM(play, false, 0);
	SETUP_SLOW(play, cfg, cfg.period_frames, ALSA_NEVER, cfg.buffer_frames);
	OPEN_PCM(capture, true, 0);
	SETUP_SLOW(capture, cfg, cfg.period_frames, ALSA_NEVER,
		   cfg.buffer_frames);
	self->s[S_WRITE_FAULT] = (struct sleeper){
		.what = "WRITEI_FRAMES from a page never served",
		.call = CALL_WRITEI, .fd = play, .buf = self->page.addr };
	self->s[S_READ_FAULT] = (struct sleeper){
		.what = "READI_FRAMES from a page never served",
		.call = CALL_READI, .fd = capture, .buf = self->page.addr };
	START_SLEEPER(S_WRITE_FAULT);
	START_SLEEPER(S_READ_FAULT);

	take_away_and_join(_metadata, self, S_WRITE_FAULT, S_READ_FAULT,
			   &removed_ms);
	EXPECT_SLEEPER(S_WRITE_FAULT, -1, EFAULT);
	EXPECT_SLEEPER(S_READ_FAULT, -1, EFAULT);
	EXPECT_ERRNO(ENODEV, write(play, self->page.addr, cfg.frame_bytes));
	EXPECT_ERRNO(ENODEV, read(capture, self->page.addr, cfg.frame_bytes));
	bring_card_back(_metadata, self, true);
}

TEST_HARNESS_MAIN
