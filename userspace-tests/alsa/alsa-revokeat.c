// SPDX-License-Identifier: GPL-2.0
/*
 * revokeat(2) on a node of a sound card: snd_revoke_node() in
 * sound/core/sound.c calls snd_card_revoke() (sound/core/init.c), which
 * does to every file of the card what its disconnect does, and keeps the
 * card:
 *
 *	- any node of the card revokes every file of the card: PCM,
 *	  control, whichever node they were opened through;
 *	- a write asleep in the stream returns what it returns at an unplug
 *	  (the bytes it wrote, or EBADFD if none); the next call, and every
 *	  call after, fails with ENODEV; poll gives POLLERR;
 *	- the card keeps its number, and a new open gets a live file;
 *	- an open racing the revoke either succeeds or fails with ENODEV;
 *	- a revoke racing the card's unbind ends with 0 or an error, never
 *	  hangs, and the card comes back with the driver.
 *
 * snd-dummy is the card; its keeper (alsa-helpers.h) unbinds it in the
 * last test.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"
#include "revoke-helpers.h"	/* struct revoke_call */
#include "revokeat.h"

#define WAKE_TIMEOUT_MS		5000
/* 128 buffers of 4096 frames at 48 kHz, 11 s: still asleep when revoked */
#define WRITE_BUFFERS		128
#define REVOKE_ROUNDS		50
/* how long the revokes go on past REVOKE_ROUNDS until an open meets one */
#define RACE_TIMEOUT_MS		10000

FIXTURE(card_revoke)
{
	struct alsa_keeper keeper;
	int card;
	char pcm[64], capture[64], ctl[64];
};

FIXTURE_SETUP(card_revoke)
{
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_dummy, self->card);
	alsa_pcm_path(self->pcm, sizeof(self->pcm), self->card, 0, false);
	alsa_pcm_path(self->capture, sizeof(self->capture), self->card, 0,
		      true);
	snprintf(self->ctl, sizeof(self->ctl), "/dev/snd/controlC%d",
		 self->card);
}

FIXTURE_TEARDOWN(card_revoke)
{
	alsa_keeper_stop(&self->keeper, 30000);
}

/* The card is still card number `card`, and plays. */
#define ASSERT_CARD_PLAYS(card)						\
	do {								\
		const char *_step = "";					\
		int _ret = alsa_check_playback(card, &_step);		\
									\
		ASSERT_EQ(0, _ret) TH_LOG("%s: %s", _step,		\
					  strerror(-_ret));		\
	} while (0)

/* Everything of a revoked PCM or control file fails with ENODEV. */
static bool pcm_revoked(int fd)
{
	int version;

	return ioctl(fd, SNDRV_PCM_IOCTL_PVERSION, &version) == -1 &&
	       errno == ENODEV;
}

static bool ctl_revoked(int fd)
{
	int version;

	return ioctl(fd, SNDRV_CTL_IOCTL_PVERSION, &version) == -1 &&
	       errno == ENODEV;
}

/* One write(2) of the whole buffer at call->arg, from call's thread. */
static long write_all(struct revoke_call *call)
{
	const struct iovec *iov = call->arg;

	return write(call->fd, iov->iov_base, iov->iov_len);
}

TEST_F(card_revoke, playback_during_write)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct revoke_call call = { 0 };
	struct iovec silence;
	struct pollfd pfd;
	char byte = 0;
	int fd;

	fd = alsa_pcm_open(self->card, 0, false, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ASSERT_EQ(0, alsa_pcm_hw_params(fd, &cfg));
	ASSERT_EQ(0, ioctl(fd, SNDRV_PCM_IOCTL_PREPARE));
	silence.iov_len = WRITE_BUFFERS * cfg.buffer_frames * cfg.frame_bytes;
	silence.iov_base = calloc(1, silence.iov_len);
	ASSERT_NE(NULL, silence.iov_base);
	/*
	 * The write fills the buffer, which starts the stream, then sleeps
	 * for room: the revoke meets it asleep with some of it written.
	 */
	ASSERT_EQ(0, revoke_call_start(&call, write_all, fd, &silence));
	ASSERT_EQ(0, revoke_call_wait_asleep(&call, SYS_write))
		TH_LOG("the write does not sleep in the running stream");

	ASSERT_EQ(0, sys_revokeat(AT_FDCWD, self->pcm, 0))
		TH_LOG("revokeat %s: %s", self->pcm, strerror(errno));

	ASSERT_EQ(0, revoke_call_join(&call, WAKE_TIMEOUT_MS))
		TH_LOG("the writer still sleeps after the revoke");
	/*
	 * As at an unplug, the woken write returns the bytes it wrote
	 * (EBADFD only if it had written none): __snd_pcm_lib_xfer()
	 * returns "xfer > 0 ? xfer : err", and this one wrote a buffer
	 * before it slept.
	 */
	EXPECT_LT(0, call.ret)
		TH_LOG("the woken write: %ld, %s", call.ret,
		       strerror(call.err));
	EXPECT_GT((long)silence.iov_len, call.ret)
		TH_LOG("the write was not cut short");
	EXPECT_EQ(0, call.ret % cfg.frame_bytes);
	TH_LOG("the woken write returned %ld of %zu bytes", call.ret,
	       silence.iov_len);
	free(silence.iov_base);
	/* the next call, and every call after, is refused */
	EXPECT_ERRNO(ENODEV, write(fd, &byte, 1));
	EXPECT_TRUE(pcm_revoked(fd));
	pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLERR, pfd.revents);

	/* the card stays, and its device opens and plays at once */
	EXPECT_EQ(self->card, alsa_card_find(ALSA_DUMMY_ID, NULL));
	ASSERT_CARD_PLAYS(self->card);
	close(fd);
}

/* Any node of the card revokes all of it, whatever node a file came from. */
TEST_F(card_revoke, whole_card)
{
	int play, cap, ctl;

	play = alsa_pcm_open(self->card, 0, false, O_NONBLOCK);
	ASSERT_LE(0, play);
	cap = alsa_pcm_open(self->card, 0, true, O_NONBLOCK);
	ASSERT_LE(0, cap);
	ctl = alsa_ctl_open(self->card, 0);
	ASSERT_LE(0, ctl);
	ASSERT_FALSE(pcm_revoked(play));
	ASSERT_FALSE(ctl_revoked(ctl));

	ASSERT_EQ(0, sys_revokeat(AT_FDCWD, self->ctl, 0))
		TH_LOG("revokeat %s: %s", self->ctl, strerror(errno));
	EXPECT_TRUE(pcm_revoked(play));
	EXPECT_TRUE(pcm_revoked(cap));
	EXPECT_TRUE(ctl_revoked(ctl));
	close(ctl);
	close(cap);
	close(play);

	/* the capture node, with nothing open */
	ASSERT_EQ(0, sys_revokeat(AT_FDCWD, self->capture, 0));
	ctl = alsa_ctl_open(self->card, 0);
	ASSERT_LE(0, ctl);
	EXPECT_FALSE(ctl_revoked(ctl));
	close(ctl);
	ASSERT_CARD_PLAYS(self->card);
}

struct opener {
	const char *path;
	int stop;
	long long opened, refused, other;
	int other_errno;
};

static void *opener_main(void *arg)
{
	struct opener *o = arg;
	int fd;

	while (!__atomic_load_n(&o->stop, __ATOMIC_ACQUIRE)) {
		fd = open(o->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			__atomic_add_fetch(&o->opened, 1, __ATOMIC_RELAXED);
			close(fd);
		} else if (errno == ENODEV) {
			__atomic_add_fetch(&o->refused, 1, __ATOMIC_RELAXED);
		} else if (errno != EBUSY) {
			/* EBUSY: the dummy's substreams are all open */
			o->other++;
			o->other_errno = errno;
		}
	}
	return NULL;
}

static bool opener_refused(struct opener *o)
{
	return __atomic_load_n(&o->refused, __ATOMIC_RELAXED) > 0;
}

/* The RFC's question 5 for a card: an open racing the revoke. */
TEST_F(card_revoke, open_races_revoke)
{
	struct opener o = { .path = self->pcm };
	long long end = now_ms() + RACE_TIMEOUT_MS;
	pthread_t thread;
	int i = 0, fd;

	ASSERT_EQ(0, pthread_create(&thread, NULL, opener_main, &o));
	/* more rounds, within RACE_TIMEOUT_MS, until an open met a revoke */
	while (i < REVOKE_ROUNDS || (!opener_refused(&o) && now_ms() < end)) {
		ASSERT_EQ(0, sys_revokeat(AT_FDCWD, self->pcm, 0))
			TH_LOG("round %d: %s", i, strerror(errno));
		usleep(2000);
		i++;
	}
	__atomic_store_n(&o.stop, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	TH_LOG("%d revokes: %lld opens, %lld refused with ENODEV",
	       i, o.opened, o.refused);
	EXPECT_EQ(0, o.other)
		TH_LOG("%lld opens failed otherwise, last %s", o.other,
		       strerror(o.other_errno));
	/*
	 * Both outcomes must show, or the race was not run: an open before
	 * the revoke, or after it, gets a live file; one during it gets
	 * ENODEV, as an open racing an unplug does.
	 */
	EXPECT_LT(0, o.opened);
	EXPECT_LT(0, o.refused);

	/* after the last revoke, an open gets a live file */
	fd = alsa_pcm_open(self->card, 0, false, O_NONBLOCK);
	ASSERT_LE(0, fd);
	EXPECT_FALSE(pcm_revoked(fd));
	close(fd);
	ASSERT_CARD_PLAYS(self->card);
}

/* A revoke racing the unbind of the card: no hang, no splat. */
TEST_F(card_revoke, races_unbind)
{
	long long end;
	int ret, fd, errs = 0;

	fd = alsa_pcm_open(self->card, 0, false, O_NONBLOCK);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
	end = now_ms() + 2000;
	while (now_ms() < end) {
		ret = sys_revokeat(AT_FDCWD, self->pcm, 0);
		if (ret == 0)
			continue;
		/* the card is going (ENODEV), or its nodes are gone */
		EXPECT_TRUE(errno == ENODEV || errno == ENXIO ||
			    errno == ENOENT)
			TH_LOG("revokeat: %s", strerror(errno));
		if (++errs > 10)
			break;
	}
	EXPECT_EQ(0, alsa_keeper_removed(&self->keeper, 10000));
	EXPECT_TRUE(pcm_revoked(fd));
	close(fd);
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
}

TEST_HARNESS_MAIN
