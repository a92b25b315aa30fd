// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "alsa-usb.h"
#include "host.h"
#include "thread-state.h"

#define USB_DEVICE_ID		"{\"id\": \"usbaudio\"}"
#define USB_DEVICE_ADD		"{\"driver\": \"usb-audio\", \"id\": \"usbaudio\", " \
				"\"audiodev\": \"snd0\", \"bus\": \"xhci.0\"}"

static int usb_take_away(void)
{
	return host_request("device_del", USB_DEVICE_ID);
}

static int usb_bring_back(void)
{
	if (alsa_card_find(NULL, ALSA_USB_DRIVER) >= 0)
		return 0;
	return host_request("device_add", USB_DEVICE_ADD);
}

/*
 * snd-usb-audio registers the card from the probe of the device's first
 * interface, while the USB core is still adding the others. A
 * usb_set_interface() on one of those (any prepare) then races the core
 * for its sysfs files, an upstream race that warns "cannot create
 * duplicate filename". The core gives the device its ep_00 last: wait
 * for it before the card is used.
 */
static int usb_card_settle(int card, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/sound/card%d/device/../ep_00",
		 card);
	while (access(path, F_OK)) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(20);
	}
	return card;
}

const struct alsa_keeper_ops alsa_keeper_usb = {
	.name = ALSA_USB_DRIVER,
	.card_driver = ALSA_USB_DRIVER,
	.take_away = usb_take_away,
	.bring_back = usb_bring_back,
	.settle = usb_card_settle,
	/* The request only asks the host: the card goes some time later */
	.removal_is_async = true,
};
