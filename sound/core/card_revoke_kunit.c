// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of snd_card_revoke(), which revokeat(2) calls for a node of
 * a sound card: its answer in each state of the card, and a card that
 * takes new files again after it.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/revoke.h>
#include <sound/core.h>

static struct snd_card *card_revoke_new_card(struct kunit *test)
{
	struct device *dev;
	struct snd_card *card;

	dev = kunit_device_register(test, "snd_card_revoke_kunit");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, snd_card_new(dev, -1, NULL, THIS_MODULE, 0,
					   &card), 0);
	return card;
}

/* The card is live: no shutdown, and its revokable takes files. */
static void card_revoke_expect_live(struct kunit *test, struct snd_card *card)
{
	KUNIT_EXPECT_EQ(test, card->shutdown, 0);
	KUNIT_EXPECT_FALSE(test, revokable_is_dying(&card->revokable));
}

static void card_revoke_idle_card(struct kunit *test)
{
	struct snd_card *card = card_revoke_new_card(test);

	KUNIT_EXPECT_EQ(test, snd_card_revoke(card), 0);
	card_revoke_expect_live(test, card);
	/* again: the first revoke re-armed the card */
	KUNIT_EXPECT_EQ(test, snd_card_revoke(card), 0);
	card_revoke_expect_live(test, card);
	snd_card_free(card);
}

/* As while snd_hda_lock_devices() keeps user space out of the card. */
static void card_revoke_locked_out(struct kunit *test)
{
	struct snd_card *card = card_revoke_new_card(test);

	scoped_guard(spinlock, &card->files_lock)
		card->shutdown = 1;
	KUNIT_EXPECT_EQ(test, snd_card_revoke(card), -EBUSY);
	KUNIT_EXPECT_EQ(test, card->shutdown, 1);
	scoped_guard(spinlock, &card->files_lock)
		card->shutdown = 0;
	KUNIT_EXPECT_EQ(test, snd_card_revoke(card), 0);
	snd_card_free(card);
}

static void card_revoke_disconnected(struct kunit *test)
{
	struct snd_card *card = card_revoke_new_card(test);

	snd_card_disconnect(card);
	KUNIT_EXPECT_EQ(test, snd_card_revoke(card), -ENODEV);
	/* and the card stays revoked */
	KUNIT_EXPECT_TRUE(test, revokable_is_dying(&card->revokable));
	snd_card_free(card);
}

static struct kunit_case card_revoke_cases[] = {
	KUNIT_CASE(card_revoke_idle_card),
	KUNIT_CASE(card_revoke_locked_out),
	KUNIT_CASE(card_revoke_disconnected),
	{}
};

static struct kunit_suite card_revoke_suite = {
	.name = "snd_card_revoke",
	.test_cases = card_revoke_cases,
};

kunit_test_suite(card_revoke_suite);

MODULE_DESCRIPTION("KUnit tests of snd_card_revoke()");
MODULE_LICENSE("GPL");
