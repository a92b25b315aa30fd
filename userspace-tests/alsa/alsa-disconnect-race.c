// SPDX-License-Identifier: GPL-2.0
/*
 * A known race of a sound card's disconnect: two threads that set a PCM
 * stream's hardware parameters and free them again (SNDRV_PCM_IOCTL_HW_PARAMS
 * against SNDRV_PCM_IOCTL_HW_FREE, which allocate and free the buffer under
 * runtime->buffer_mutex) on one file while snd-dummy is unbound, CYCLES
 * times. Each thread must leave with ENODEV once the file is revoked,
 * within JOIN_TIMEOUT_MS; the card comes back and plays. A splat in the log
 * fails the run (KASAN catches a buffer freed under a thread still using it).
 *
 * hw_params_vs_hw_free closes the file before it waits for the unbind, as
 * Linux 6.12's unbind waits for the last close: it passes there too
 * (base.suite). unbind_returns_during_hw_params_vs_hw_free wants the
 * unbind back while the threads race on the open file: the series only.
 *
 * The other race reported around a disconnect, a USB unplug with a control
 * event reader and a drain in flight, is alsa-usb-unplug's
 * drain_and_event_reader_woken_on_unplug.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"

#define CYCLES		10
#define JOIN_TIMEOUT_MS	10000

FIXTURE(disconnect_race)
{
	struct alsa_keeper keeper;
	int card;
};

FIXTURE_SETUP(disconnect_race)
{
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_dummy, self->card);
}

FIXTURE_TEARDOWN(disconnect_race)
{
	alsa_keeper_stop(&self->keeper, 30000);
}

struct racer {
	int fd;
	bool free_it;		/* HW_FREE, else HW_PARAMS */
	long calls;
};

/* Its call, again and again, until the file is revoked. */
static void *racer_main(void *arg)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct racer *r = arg;
	int ret;

	do {
		if (r->free_it)
			ret = ioctl(r->fd, SNDRV_PCM_IOCTL_HW_FREE) ? -errno : 0;
		else
			ret = alsa_pcm_hw_params(r->fd, &cfg);
		r->calls++;
	} while (ret != -ENODEV);
	return NULL;
}

static void race_unbind(struct __test_metadata *_metadata,
			FIXTURE_DATA(disconnect_race) *self,
			bool unbind_returns)
{
	struct racer racers[2];
	struct timespec deadline;
	pthread_t threads[2];
	int cycle, i, fd;

	for (cycle = 0; cycle < CYCLES; cycle++) {
		fd = alsa_pcm_open(self->card, 0, false, 0);
		ASSERT_LE(0, fd) TH_LOG("cycle %d: open: %s", cycle,
					strerror(-fd));
		for (i = 0; i < 2; i++) {
			racers[i] = (struct racer){ .fd = fd, .free_it = i };
			ASSERT_EQ(0, pthread_create(&threads[i], NULL,
						    racer_main, &racers[i]));
		}
		usleep(100000 + 50000 * cycle);
		ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));
		if (unbind_returns)
			EXPECT_UNBIND_RETURNED(&self->keeper, JOIN_TIMEOUT_MS);
		alsa_deadline_in(&deadline, JOIN_TIMEOUT_MS);
		for (i = 0; i < 2; i++) {
			ASSERT_EQ(0, pthread_timedjoin_np(threads[i], NULL,
							  &deadline))
				TH_LOG("cycle %d: %s still running", cycle,
				       i ? "HW_FREE" : "HW_PARAMS");
			EXPECT_LT(0, racers[i].calls);
		}
		close(fd);
		ASSERT_CARD_RECOVERS(&self->keeper, self->card);
		self->card = alsa_card_find(ALSA_DUMMY_ID, NULL);
		ASSERT_LE(0, self->card);
	}
	TH_LOG("%d cycles: %ld HW_PARAMS and %ld HW_FREE in the last", CYCLES,
	       racers[0].calls, racers[1].calls);
}

/* The threads end, the file is closed, then the unbind may return. */
TEST_F_TIMEOUT(disconnect_race, hw_params_vs_hw_free, 600)
{
	race_unbind(_metadata, self, false);
}

/* The unbind returns while the threads still race on the open file. */
TEST_F_TIMEOUT(disconnect_race, unbind_returns_during_hw_params_vs_hw_free,
	       600)
{
	race_unbind(_metadata, self, true);
}

TEST_HARNESS_MAIN
