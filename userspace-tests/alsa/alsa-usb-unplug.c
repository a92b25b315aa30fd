// SPDX-License-Identifier: GPL-2.0
/*
 * A USB audio device unplugged while a thread plays to it, pinned as
 * Linux 6.12 has it. The test plays to QEMU's usb-audio device (S16_LE,
 * 2 channels, 48 kHz, read/write access) from a thread that writes a
 * period at a time in blocking mode, and asks the host to device_del it.
 * usb_audio_disconnect() (sound/usb/card.c) calls snd_card_disconnect():
 * the stream goes to SNDRV_PCM_STATE_DISCONNECTED and the writer, asleep
 * in wait_for_avail(), is woken. Its write returns, within
 * WAKE_TIMEOUT_MS:
 *
 *	-1/EBADFD	if it had written nothing yet (the usual case: URBs
 *			end on period boundaries, so a period-sized write
 *			finds no room and sleeps before copying)
 *	a short count	if it had written part of its period: then
 *			__snd_pcm_lib_xfer() returns what it wrote
 *
 * and the next write, and any ioctl, on the old fds gives ENODEV; poll
 * gives POLLERR. Then the device is plugged back (device_add) and the new
 * card must play. A thread in SNDRV_PCM_IOCTL_DRAIN and one reading
 * control events are woken the same way: -1/ENODEV.
 *
 * Not as in 6.12: a write whose source is a page that a userfaultfd never
 * serves sleeps in the page fault of its copy, inside the method. The
 * unplug's revoke interrupts the fault, which gives up: -1/EFAULT, within
 * WAKE_TIMEOUT_MS, and the card goes and comes back. (6.12's disconnect
 * did not wait for the writer, which slept on until the page came.)
 *
 * As in 6.12: a write whose source is a page of a FUSE file whose server
 * does not answer sleeps in the page fault killably, where neither a kick
 * nor an interruption reaches. The unplug does not wait for it: the card
 * goes at once while the writer sleeps on; once the server answers (with
 * EIO) the write fails with EFAULT, its file is released, and the device
 * plugged back plays.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"
#include "alsa-usb.h"
#include "fuse-stall.h"
#include "uffd-helpers.h"

#define WAKE_TIMEOUT_MS 10000
#define GONE_TIMEOUT_MS 10000
#define STEADY_WRITES 8		/* the buffer full and then some */

struct writer {
	int fd;
	void *buf;
	size_t len;
	pid_t tid;
	unsigned long writes;	/* completed in full */
	int done;
	long ret;		/* of the write that did not complete */
	int err;
	long long end_ms;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	long ret;

	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	for (;;) {
		ret = syscall(SYS_write, (long)w->fd, w->buf, w->len);
		if (ret != (long)w->len)
			break;
		__atomic_add_fetch(&w->writes, 1, __ATOMIC_RELEASE);
	}
	w->ret = ret;
	w->err = ret < 0 ? errno : 0;
	w->end_ms = now_ms();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A thread sleeping in one call: ioctl(fd, req), read(fd, buf, len) or
 * write(fd, buf, len).
 */
struct blocker {
	int fd;
	unsigned long req;	/* 0: read or write */
	bool write;
	void *buf;
	size_t len;
	pid_t tid;
	long ret;
	int err;
	long long end_ms;
};

static void *blocker_main(void *arg)
{
	struct blocker *b = arg;

	__atomic_store_n(&b->tid, gettid(), __ATOMIC_RELEASE);
	if (b->req)
		b->ret = syscall(SYS_ioctl, (long)b->fd, b->req, 0L);
	else
		b->ret = syscall(b->write ? SYS_write : SYS_read, (long)b->fd,
				 b->buf, b->len);
	b->err = b->ret < 0 ? errno : 0;
	b->end_ms = now_ms();
	return NULL;
}

static int blocker_start(struct blocker *b, pthread_t *thread)
{
	long long end = now_ms() + 5000;
	int ret = pthread_create(thread, NULL, blocker_main, b);

	if (ret)
		return -ret;
	while (!__atomic_load_n(&b->tid, __ATOMIC_ACQUIRE) && now_ms() < end)
		usleep(1000);
	return wait_asleep_in(b->tid, b->req ? SYS_ioctl :
			      b->write ? SYS_write : SYS_read, b->fd, 5000);
}

FIXTURE(usb)
{
	struct alsa_keeper keeper;
	int card;
	int play, ctl;
	struct writer w;
	pthread_t thread;
	bool running;		/* the writer thread, not joined yet */
	struct blocker drain, events;
	pthread_t drain_thread, events_thread;
	int blocked;		/* of those threads, started and not joined */
	struct uffd_page page;
	struct blocker faulter;
	pthread_t faulter_thread;
	bool faulting;		/* the faulter, started and not joined */
	struct fuse_stall stall;
};

FIXTURE_SETUP(usb)
{
	self->play = self->ctl = -1;
	self->running = false;
	self->blocked = 0;
	memset(&self->drain, 0, sizeof(self->drain));
	memset(&self->events, 0, sizeof(self->events));
	memset(&self->w, 0, sizeof(self->w));
	memset(&self->page, 0, sizeof(self->page));
	memset(&self->stall, 0, sizeof(self->stall));
	self->faulting = false;
	/* Before any file of the card is open: see alsa-helpers.h */
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_usb, self->card);
}

FIXTURE_TEARDOWN(usb)
{
	if (self->play >= 0)
		close(self->play);
	if (self->ctl >= 0)
		close(self->ctl);
	/* A writer still asleep dies with the process, its buffer kept */
	if (self->running)
		pthread_detach(self->thread);
	else
		free(self->w.buf);
	if (self->blocked > 0)
		pthread_detach(self->events_thread);
	if (self->blocked > 1)
		pthread_detach(self->drain_thread);
	/* A faulting writer the unplug did not end goes on now */
	uffd_page_release(&self->page);
	fuse_stall_release(&self->stall);
	if (self->faulting)
		pthread_join(self->faulter_thread, NULL);
	uffd_page_fini(&self->page);
	fuse_stall_fini(&self->stall);
	/* It plugs the device back in if the test did not */
	alsa_keeper_stop(&self->keeper, 30000);
}

/* Opens the card's control device and its playback PCM with cfg. */
#define OPEN_CARD(cfg)							\
	do {								\
		int _ret;						\
									\
		self->ctl = alsa_ctl_open(self->card, 0);		\
		ASSERT_LE(0, self->ctl) TH_LOG("%s", strerror(-self->ctl));\
		self->play = alsa_pcm_open(self->card, 0, false, 0);	\
		ASSERT_LE(0, self->play)				\
			TH_LOG("%s", strerror(-self->play));		\
		_ret = alsa_pcm_hw_params(self->play, &(cfg));		\
		ASSERT_EQ(0, _ret)					\
			TH_LOG("hw_params: %s", strerror(-_ret));	\
		TH_LOG("period %lu, buffer %lu frames",			\
		       (cfg).period_frames, (cfg).buffer_frames);	\
	} while (0)

/* Opens the card with cfg, prepared and empty: a write copies at once. */
#define OPEN_CARD_PREPARED(cfg)						\
	do {								\
		OPEN_CARD(cfg);						\
		ASSERT_EQ(0, alsa_pcm_sw_params(self->play,		\
						(cfg).period_frames,	\
						ALSA_NEVER,		\
						(cfg).buffer_frames));	\
		ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));\
	} while (0)

/* The old files refuse a write and close; the card comes back and plays. */
#define ASSERT_CLOSED_AND_RECOVERS(buf, cfg)				\
	do {								\
		EXPECT_ERRNO(ENODEV, write(self->play, buf,		\
					   (cfg).frame_bytes));		\
		EXPECT_EQ(0, close(self->play));			\
		EXPECT_EQ(0, close(self->ctl));				\
		self->play = self->ctl = -1;				\
		ASSERT_CARD_RECOVERS(&self->keeper, self->card);	\
	} while (0)

TEST_F_TIMEOUT(usb, writer_woken_on_unplug, 120)
{
	/* 85 ms periods in a 1.4 s buffer: wait_for_avail() waits 1.5 s */
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 4096, 65536);
	struct snd_ctl_card_info info;
	struct snd_pcm_status status;
	struct timespec deadline;
	long long removed_ms, end;
	unsigned long writes;
	int version;

	OPEN_CARD(cfg);
	/* Woken a period at a time; starts once full */
	ASSERT_EQ(0, alsa_pcm_sw_params(self->play, cfg.period_frames,
					cfg.buffer_frames,
					cfg.buffer_frames));
	ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));

	self->w.fd = self->play;
	self->w.len = cfg.period_frames * cfg.frame_bytes;
	self->w.buf = calloc(1, self->w.len);
	ASSERT_NE(NULL, self->w.buf);
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, writer_main,
				    &self->w));
	self->running = true;

	/* Playing steadily: past the first buffer, writer waiting for room */
	end = now_ms() + 20000;
	while (__atomic_load_n(&self->w.writes, __ATOMIC_ACQUIRE) <
	       cfg.buffer_frames / cfg.period_frames + STEADY_WRITES &&
	       !__atomic_load_n(&self->w.done, __ATOMIC_ACQUIRE) &&
	       now_ms() < end)
		usleep(10000);
	ASSERT_FALSE(__atomic_load_n(&self->w.done, __ATOMIC_ACQUIRE))
		TH_LOG("write failed while playing: %ld (%s)", self->w.ret,
		       strerror(self->w.err));
	writes = __atomic_load_n(&self->w.writes, __ATOMIC_ACQUIRE);
	ASSERT_LE(cfg.buffer_frames / cfg.period_frames + STEADY_WRITES,
		  writes) TH_LOG("only %lu periods written in 20 s", writes);
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(self->play));
	ASSERT_EQ(0, wait_asleep_in(self->w.tid, SYS_write,
					   self->play, 5000))
		TH_LOG("the writer does not sleep in write()");

	removed_ms = now_ms();
	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	alsa_deadline_in(&deadline, WAKE_TIMEOUT_MS);
	ASSERT_EQ(0, pthread_timedjoin_np(self->thread, NULL, &deadline))
		TH_LOG("writer still asleep %d ms after the unplug",
		       WAKE_TIMEOUT_MS);
	self->running = false;
	TH_LOG("writer back after %lld ms, %lu periods written: %ld (%s)",
	       self->w.end_ms - removed_ms, self->w.writes, self->w.ret,
	       self->w.ret < 0 ? strerror(self->w.err) : "short count");
	if (self->w.ret < 0) {
		EXPECT_EQ(EBADFD, self->w.err);
	} else {
		EXPECT_LT(0, self->w.ret);
		EXPECT_GT((long)self->w.len, self->w.ret);
		EXPECT_EQ(0, self->w.ret % cfg.frame_bytes);
	}
	EXPECT_GT(WAKE_TIMEOUT_MS, self->w.end_ms - removed_ms);
	ASSERT_TRUE(alsa_card_wait_gone(self->card, GONE_TIMEOUT_MS))
		TH_LOG("card %d still listed after the unplug", self->card);

	/* The old files, revoked by the disconnect */
	EXPECT_ERRNO(ENODEV, write(self->play, self->w.buf, self->w.len));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_HWSYNC));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_PVERSION,
				   &version));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_STATUS,
				   &status));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->play, POLLOUT));
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl, SNDRV_CTL_IOCTL_CARD_INFO,
				   &info));

	EXPECT_EQ(0, close(self->play));
	EXPECT_EQ(0, close(self->ctl));
	self->play = self->ctl = -1;
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
}

TEST_F_TIMEOUT(usb, drain_and_event_reader_woken_on_unplug, 120)
{
	/* 1.4 s to drain, from the drain's start: it waits at the unplug */
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 4096, 65536);
	static struct snd_ctl_event event;
	struct timespec deadline;
	long long removed_ms;
	int on = 1, ret;
	void *silence;

	OPEN_CARD(cfg);
	ASSERT_EQ(0, ioctl(self->ctl, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &on));
	/* Full but not started: the drain starts it */
	ASSERT_EQ(0, alsa_pcm_sw_params(self->play, cfg.period_frames,
					ALSA_NEVER, cfg.buffer_frames));
	ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	silence = calloc(cfg.buffer_frames, cfg.frame_bytes);
	ASSERT_NE(NULL, silence);
	ret = write(self->play, silence, cfg.buffer_frames * cfg.frame_bytes);
	free(silence);
	ASSERT_EQ((long)(cfg.buffer_frames * cfg.frame_bytes), ret);
	ASSERT_EQ(SNDRV_PCM_STATE_PREPARED, alsa_pcm_state(self->play));

	self->events = (struct blocker){ .fd = self->ctl, .buf = &event,
					 .len = sizeof(event) };
	self->drain = (struct blocker){ .fd = self->play,
					.req = SNDRV_PCM_IOCTL_DRAIN };
	ASSERT_EQ(0, blocker_start(&self->events, &self->events_thread))
		TH_LOG("no thread asleep reading control events");
	self->blocked = 1;
	ASSERT_EQ(0, blocker_start(&self->drain, &self->drain_thread))
		TH_LOG("no thread asleep in the drain");
	self->blocked = 2;

	removed_ms = now_ms();
	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	alsa_deadline_in(&deadline, WAKE_TIMEOUT_MS);
	ASSERT_EQ(0, pthread_timedjoin_np(self->drain_thread, NULL,
					  &deadline))
		TH_LOG("drain still asleep %d ms after the unplug",
		       WAKE_TIMEOUT_MS);
	self->blocked = 1;
	ASSERT_EQ(0, pthread_timedjoin_np(self->events_thread, NULL,
					  &deadline))
		TH_LOG("event reader still asleep %d ms after the unplug",
		       WAKE_TIMEOUT_MS);
	self->blocked = 0;
	TH_LOG("drain back after %lld ms, event reader after %lld ms",
	       self->drain.end_ms - removed_ms,
	       self->events.end_ms - removed_ms);
	EXPECT_EQ(-1, self->drain.ret);
	EXPECT_EQ(ENODEV, self->drain.err) TH_LOG("drain: %s",
						  strerror(self->drain.err));
	EXPECT_EQ(-1, self->events.ret);
	EXPECT_EQ(ENODEV, self->events.err) TH_LOG("event read: %s",
						   strerror(self->events.err));
	ASSERT_TRUE(alsa_card_wait_gone(self->card, GONE_TIMEOUT_MS));

	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_DRAIN));
	EXPECT_ERRNO(ENODEV, read(self->ctl, &event, sizeof(event)));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->ctl, POLLIN));
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
	EXPECT_EQ(0, close(self->play));
	EXPECT_EQ(0, close(self->ctl));
	self->play = self->ctl = -1;
}

TEST_F_TIMEOUT(usb, writer_faulting_on_its_source_ends_on_unplug, 120)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 4096, 65536);
	struct timespec deadline;
	long long removed_ms;
	int ret;

	ret = uffd_page_init(&self->page);
	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));
	OPEN_CARD_PREPARED(cfg);
	self->faulter = (struct blocker){ .fd = self->play, .write = true,
					  .buf = self->page.addr,
					  .len = cfg.period_frames *
						 cfg.frame_bytes };
	ASSERT_EQ(0, blocker_start(&self->faulter, &self->faulter_thread))
		TH_LOG("no thread asleep writing from the page");
	self->faulting = true;

	removed_ms = now_ms();
	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	alsa_deadline_in(&deadline, WAKE_TIMEOUT_MS);
	ASSERT_EQ(0, pthread_timedjoin_np(self->faulter_thread, NULL,
					  &deadline))
		TH_LOG("writer still in its page fault %d ms after the unplug",
		       WAKE_TIMEOUT_MS);
	self->faulting = false;
	TH_LOG("writer back after %lld ms",
	       self->faulter.end_ms - removed_ms);
	EXPECT_EQ(-1, self->faulter.ret);
	EXPECT_EQ(EFAULT, self->faulter.err)
		TH_LOG("write: %s", strerror(self->faulter.err));
	ASSERT_TRUE(alsa_card_wait_gone(self->card, GONE_TIMEOUT_MS))
		TH_LOG("card %d still listed after the unplug", self->card);

	ASSERT_CLOSED_AND_RECOVERS(self->page.addr, cfg);
}

TEST_F_TIMEOUT(usb, unplug_leaves_a_writer_stalled_on_a_fuse_page, 120)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 4096, 65536);
	struct timespec deadline;
	int ret;

	ret = fuse_stall_init(&self->stall);
	ASSERT_EQ(0, ret) TH_LOG("FUSE: %s", strerror(-ret));
	OPEN_CARD_PREPARED(cfg);
	self->faulter = (struct blocker){ .fd = self->play, .write = true,
					  .buf = self->stall.addr,
					  .len = self->stall.size };
	ASSERT_EQ(0, pthread_create(&self->faulter_thread, NULL, blocker_main,
				    &self->faulter));
	self->faulting = true;
	ASSERT_EQ(0, fuse_stall_wait_read(&self->stall, 5000))
		TH_LOG("the write does not fault on the FUSE page");

	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	ASSERT_TRUE(alsa_card_wait_gone(self->card, GONE_TIMEOUT_MS))
		TH_LOG("card %d still listed: the unplug waits for the writer",
		       self->card);
	/* The unplug came back without it: the writer still sleeps */
	ASSERT_EQ(EBUSY, pthread_tryjoin_np(self->faulter_thread, NULL));

	fuse_stall_release(&self->stall);
	alsa_deadline_in(&deadline, WAKE_TIMEOUT_MS);
	ASSERT_EQ(0, pthread_timedjoin_np(self->faulter_thread, NULL,
					  &deadline))
		TH_LOG("writer still asleep once its page failed");
	self->faulting = false;
	EXPECT_EQ(-1, self->faulter.ret);
	EXPECT_EQ(EFAULT, self->faulter.err)
		TH_LOG("write: %s", strerror(self->faulter.err));

	ASSERT_CLOSED_AND_RECOVERS(self->stall.addr, cfg);
}

TEST_HARNESS_MAIN
