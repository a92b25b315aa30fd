# SPDX-License-Identifier: GPL-2.0
# Helpers for shell tests: TAP output in the form kselftest programs
# print, sound card lookup, and requests to the host (see host.h).

tap_count=0
tap_failed=0

# ok DESCRIPTION COMMAND...: one test line, passing if the command does.
ok() {
	desc=$1
	shift
	tap_count=$((tap_count + 1))
	if "$@"; then
		echo "ok $tap_count $desc"
	else
		echo "not ok $tap_count $desc"
		tap_failed=$((tap_failed + 1))
	fi
}

diag() {
	echo "# $*"
}

tap_done() {
	echo "1..$tap_count"
	[ "$tap_failed" = 0 ]
	exit
}

# host_request COMMAND JSON: have the host send a QMP command to QEMU.
host_request() {
	echo "host-request: $1 $2" >/dev/kmsg
}

# card_number PATTERN: the number of the first card whose line in
# /proc/asound/cards matches the extended regex PATTERN.
card_number() {
	sed -n 's/^ *\([0-9]*\) \[.*\]: \(.*\)$/\1 \2/p' /proc/asound/cards |
		grep -E "$1" | head -n 1 | cut -d' ' -f1
}

# usb_audio_ready: a USB audio card is there and its device is fully
# configured: the USB core adds the device's ep_00 after every interface,
# and a prepare before that races the core for the interfaces' sysfs files
# (see usb_card_settle() in alsa-helpers.c).
usb_audio_ready() {
	set -- "$(card_number 'USB-Audio')"
	[ -n "$1" ] && [ -e "/sys/class/sound/card$1/device/../ep_00" ]
}

# wait_until SECONDS COMMAND...: poll every 0.1 s until the command succeeds.
wait_until() {
	end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}
