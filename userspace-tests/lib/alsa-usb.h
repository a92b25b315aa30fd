/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's USB audio device, which the host unplugs and plugs back in
 * through QEMU's monitor (host.h): a keeper for alsa-helpers.h.
 */
#ifndef USERSPACE_TESTS_ALSA_USB_H
#define USERSPACE_TESTS_ALSA_USB_H

#include "alsa-helpers.h"

#define ALSA_USB_DRIVER		"USB-Audio"	/* snd-usb-audio's driver name */

/* device_del/device_add of QEMU's "usbaudio" device */
extern const struct alsa_keeper_ops alsa_keeper_usb;

#endif
