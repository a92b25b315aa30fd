// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU's USB audio device unplugged and plugged back REPLUG_CYCLES times
 * (a setting of the suite, default 100) while a stream plays to it, on a
 * kernel with kmemleak on (leak.suite boots the kernel of
 * configs/leak.config). Each unplug revokes the files the test
 * holds and lets the card go while they are open; the closes come after.
 * Each replug makes a new card. None of it may leave unreferenced memory
 * behind: leaks kmemleak knew of before the first cycle are cleared, and
 * after the last one a scan must report nothing.
 *
 * Every cycle also checks what the user sees: the card leaves with the
 * files open, the player's next write gives ENODEV, and the new card
 * plays.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"
#include "alsa-usb.h"
#include "kmemleak.h"
#include "settings.h"

#define CYCLES		suite_setting("REPLUG_CYCLES", 100)
#define REMOVAL_MS	10000

FIXTURE(replug)
{
	struct alsa_keeper keeper;
	int card;
	int play, ctl;
	void *silence;
};

FIXTURE_SETUP(replug)
{
	self->play = self->ctl = -1;
	self->silence = NULL;
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_usb, self->card);
}

FIXTURE_TEARDOWN(replug)
{
	if (self->play >= 0)
		close(self->play);
	if (self->ctl >= 0)
		close(self->ctl);
	free(self->silence);
	alsa_keeper_stop(&self->keeper, 30000);
}

TEST_F_TIMEOUT(replug, unplug_while_playing_leaks_nothing, 3000)
{
	/* 1.4 s of buffer: still playing when the unplug comes */
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 4096, 65536);
	static char report[4096];
	ssize_t n;
	int i, ret;

	ret = kmemleak_command("scan");
	ASSERT_EQ(0, ret) TH_LOG(KMEMLEAK ": %s (booted without kmemleak=on?)",
				 strerror(-ret));
	ASSERT_EQ(0, kmemleak_command("clear"));

	for (i = 0; i < CYCLES; i++) {
		self->ctl = alsa_ctl_open(self->card, 0);
		ASSERT_LE(0, self->ctl) TH_LOG("cycle %d: control: %s", i,
						strerror(-self->ctl));
		self->play = alsa_pcm_open(self->card, 0, false, 0);
		ASSERT_LE(0, self->play) TH_LOG("cycle %d: pcm: %s", i,
						 strerror(-self->play));
		ret = alsa_pcm_hw_params(self->play, &cfg);
		ASSERT_EQ(0, ret) TH_LOG("cycle %d: hw_params: %s", i,
					 strerror(-ret));
		if (!self->silence) {
			self->silence = calloc(cfg.period_frames,
					       cfg.frame_bytes);
			ASSERT_NE(NULL, self->silence);
		}
		ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
		n = alsa_pcm_write_silence(self->play, &cfg, cfg.buffer_frames);
		ASSERT_EQ((ssize_t)(cfg.buffer_frames * cfg.frame_bytes), n)
			TH_LOG("cycle %d: write: %s", i,
			       n < 0 ? strerror(-n) : "short");
		ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(self->play));

		ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
		ASSERT_EQ(0, alsa_keeper_removed(&self->keeper, REMOVAL_MS));
		/* The host's unplug returns before the guest sees it */
		ASSERT_TRUE(alsa_card_wait_gone(self->card, REMOVAL_MS))
			TH_LOG("cycle %d: the card waits for its files", i);
		EXPECT_ERRNO(ENODEV, write(self->play, self->silence,
					   cfg.period_frames * cfg.frame_bytes));
		EXPECT_EQ(0, close(self->play));
		EXPECT_EQ(0, close(self->ctl));
		self->play = self->ctl = -1;

		ASSERT_CARD_RECOVERS(&self->keeper, self->card);
		self->card = alsa_card_find(NULL, ALSA_USB_DRIVER);
		ASSERT_LE(0, self->card);
	}

	usleep(KMEMLEAK_MIN_AGE_MS * 1000);
	/* Twice, as kmemleak's documentation advises: fewer false leaks */
	ASSERT_EQ(0, kmemleak_command("scan"));
	ASSERT_EQ(0, kmemleak_command("scan"));
	n = kmemleak_report(report, sizeof(report));
	ASSERT_LE(0, n) TH_LOG("%s", strerror(-n));
	EXPECT_EQ(0, n) TH_LOG("after %d cycles:\n%s", CYCLES, report);
}

TEST_HARNESS_MAIN
