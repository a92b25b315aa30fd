/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the ALSA disconnect tests, on the raw ioctl ABI of
 * <sound/asound.h> (no alsa-lib): finding a card, opening and setting up
 * its PCM and control devices, checking that a thread sleeps in a call,
 * and a keeper: a helper process that takes a card away and brings it
 * back.
 *
 * Why a process and not a thread: an unbind that does not return, as it
 * did not while snd_card_free() waited for every file of the card to be
 * closed, must not keep the test's files: a thread of the test would
 * share its file table and memory, so a test that dies mid-way would
 * hang for ever. The keeper is forked before the
 * test opens anything of the card and holds nothing of it; it runs in a
 * process group of its own, so that the harness's kill on a timeout
 * spares it, and when the test goes away without bringing the card back
 * it does so itself.
 */
#ifndef USERSPACE_TESTS_ALSA_HELPERS_H
#define USERSPACE_TESTS_ALSA_HELPERS_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <time.h>
#include <sound/asound.h>

#include "expect-errno.h"
#include "thread-state.h"

#define ALSA_DUMMY_ID		"Dummy"		/* snd-dummy's card id */
#define ALSA_DUMMY_DRIVER_DIR	"/sys/bus/platform/drivers/snd_dummy"
#define ALSA_DUMMY_DEVICE	"snd_dummy.0"

/*
 * The number of the first card in /proc/asound/cards whose id or driver
 * name (either may be NULL) is the one given, or -ENOENT.
 */
int alsa_card_find(const char *id, const char *driver);
/* The same, polled every 50 ms; -ETIMEDOUT if none within timeout_ms. */
int alsa_card_wait(const char *id, const char *driver, int timeout_ms);
/*
 * Waits until card is no longer in /proc/asound/cards: snd_card_disconnect()
 * takes it out of snd_cards[] as its last step, after every file was
 * revoked and released and every device disconnected.
 */
bool alsa_card_wait_gone(int card, int timeout_ms);

/*
 * Open /dev/snd/pcmC<card>D<device>p (or c) and /dev/snd/controlC<card>,
 * O_RDWR | O_CLOEXEC | flags. A PCM file gets SNDRV_PCM_IOCTL_USER_PVERSION
 * as alsa-lib sets it. Return the fd or -errno.
 */
int alsa_pcm_open(int card, int device, bool capture, int flags);
int alsa_ctl_open(int card, int flags);
void alsa_pcm_path(char *buf, size_t len, int card, int device, bool capture);

struct alsa_pcm_config {
	int access;			/* SNDRV_PCM_ACCESS_* */
	int format;			/* SNDRV_PCM_FORMAT_* */
	unsigned int channels;
	unsigned int rate;
	unsigned long period_frames;	/* 0: left to the kernel */
	unsigned long buffer_frames;	/* 0: left to the kernel */
	unsigned int frame_bytes;	/* set by alsa_pcm_hw_params() */
};

/* S16_LE, 2 channels, 48 kHz, interleaved, read/write or mmap access */
#define ALSA_STD_CONFIG(mmap, period, buffer) {				\
	.access = (mmap) ? SNDRV_PCM_ACCESS_MMAP_INTERLEAVED :		\
			   SNDRV_PCM_ACCESS_RW_INTERLEAVED,		\
	.format = SNDRV_PCM_FORMAT_S16_LE,				\
	.channels = 2,							\
	.rate = 48000,							\
	.period_frames = (period),					\
	.buffer_frames = (buffer),					\
}

/*
 * SNDRV_PCM_IOCTL_HW_PARAMS with exactly cfg's access, format, channels,
 * rate and, where given, period and buffer size; cfg gets what the kernel
 * chose. Returns 0 or -errno.
 */
int alsa_pcm_hw_params(int fd, struct alsa_pcm_config *cfg);

/* A threshold that is never reached: the boundary. */
#define ALSA_NEVER	(~0UL)
/* SNDRV_PCM_IOCTL_SW_PARAMS, before prepare. Returns 0 or -errno. */
int alsa_pcm_sw_params(int fd, unsigned long avail_min,
		       unsigned long start_threshold,
		       unsigned long stop_threshold);
/* SNDRV_PCM_STATE_* from SNDRV_PCM_IOCTL_STATUS, or -errno. */
int alsa_pcm_state(int fd);
/*
 * Writes (reads) that many frames in one write(2) (read(2)) from (to) a
 * zeroed buffer. Returns what the call returned: bytes or -errno.
 */
ssize_t alsa_pcm_write_silence(int fd, const struct alsa_pcm_config *cfg,
			       unsigned long frames);
ssize_t alsa_pcm_read_frames(int fd, const struct alsa_pcm_config *cfg,
			     unsigned long frames);

/*
 * Checks that card plays: its PCM device 0 opens, takes the standard
 * config (S16_LE, 2ch, 48 kHz, rw), prepares, accepts a buffer of silence
 * and its hardware pointer moves. Returns 0 or -errno, *step saying what
 * failed.
 */
int alsa_check_playback(int card, const char **step);


/* What a keeper does to its card, in the keeper's process. */
struct alsa_keeper_ops {
	const char *name;		/* the card's driver, for messages */
	const char *card_id;		/* the card's id or driver name */
	const char *card_driver;	/* (either may be NULL) */
	int (*take_away)(void);		/* 0 or -errno */
	int (*bring_back)(void);	/* 0 or -errno; 0 if it is there */
	/* Optional: once the card is listed, waits till it can be used */
	int (*settle)(int card, int timeout_ms);
	bool removal_is_async;		/* the card may outlive take_away() */
};

/* unbind/bind of snd_dummy.0, which returns once the card is freed */
extern const struct alsa_keeper_ops alsa_keeper_dummy;

/* Writes val to a sysfs file: 0 or -errno. */
int alsa_sysfs_write(const char *path, const char *val);

struct alsa_keeper {
	const struct alsa_keeper_ops *ops;
	pid_t pid;
	int sock;		/* the test's end of the keeper's socket */
	int pending;		/* removals asked for, not answered yet */
};

/*
 * For FIXTURE_SETUP, before anything of the card is opened: waits (up to
 * 30 s, a previous keeper may still be bringing it back) until the card
 * is there and starts a keeper for it. Returns the card number or -errno.
 */
int alsa_keeper_start(struct alsa_keeper *k, const struct alsa_keeper_ops *ops);
/*
 * alsa_keeper_start() that fails the test saying which card is missing;
 * card gets the card's number. Use after including kselftest_harness.h.
 */
#define ALSA_KEEPER_SETUP(keeper, ops, card)				\
	do {								\
		(card) = alsa_keeper_start(keeper, ops);		\
		ASSERT_LE(0, card)					\
			TH_LOG("no %s card: %s", (ops)->name,		\
			       strerror(-(card)));			\
	} while (0)
/* Has the keeper take the card away; does not wait. 0 or -errno. */
int alsa_keeper_remove(struct alsa_keeper *k);
/*
 * Waits for the removal to finish: 0, or -errno of the keeper's
 * take_away(); -ETIMEDOUT while it still is pending after timeout_ms.
 */
int alsa_keeper_removed(struct alsa_keeper *k, int timeout_ms);
/*
 * Waits up to 10 s for the removal to finish and old_card to leave
 * /proc/asound/cards, then brings the card back and waits for it. Returns
 * the new card's number or -errno, *step saying what failed.
 */
int alsa_keeper_bring_back(struct alsa_keeper *k, int old_card,
			   const char **step);
/*
 * Once every file of the card is closed: waits up to 10 s for the removal
 * to finish and old_card to leave /proc/asound/cards, brings the card
 * back, waits for it and checks it plays. Returns 0 or -errno, *step
 * saying what failed.
 */
int alsa_keeper_recover(struct alsa_keeper *k, int old_card,
			const char **step);
/*
 * For FIXTURE_TEARDOWN: lets the keeper go (it brings the card back if it
 * is away) and waits up to timeout_ms for it to end.
 */
void alsa_keeper_stop(struct alsa_keeper *k, int timeout_ms);

/* A CLOCK_REALTIME deadline ms from now, for pthread_timedjoin_np(). */
void alsa_deadline_in(struct timespec *ts, int ms);
/* poll(2) on fd without waiting: revents, or -1 if not ready. */
int alsa_poll_now(int fd, short events);

/*
 * The unbind has returned although files of the card are open: the
 * disconnect released them.
 */
#define EXPECT_UNBIND_RETURNED(keeper, ms)				\
	do {								\
		EXPECT_EQ(0, alsa_keeper_removed(keeper, ms))		\
			TH_LOG("unbind still waits for the card's "	\
			       "files to close");			\
	} while (0)

/* Every file of the card closed: it comes back and plays. */
#define ASSERT_CARD_RECOVERS(keeper, old_card)				\
	do {								\
		const char *_alsa_step = "";				\
		int _alsa_ret = alsa_keeper_recover(keeper, old_card,	\
						    &_alsa_step);	\
									\
		ASSERT_EQ(0, _alsa_ret)					\
			TH_LOG("%s: %s", _alsa_step,			\
			       strerror(-_alsa_ret));			\
	} while (0)

#endif
