#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# aplay-disconnect.sh [unbind] [revoke] [unplug]: aplay plays to a card,
# then the card goes away under it, the way a user sees it: snd-dummy
# unbound (read/write and mmap mode), the PCM node revoked with revoke(1),
# which keeps the card, and QEMU's USB audio device unplugged (read/write
# and mmap mode). aplay must end with an error about the device and a
# non-zero status, and the card must work again once it is back.
# Which of aplay's messages it prints depends on where the disconnect meets
# it: in a transfer, or in the status and prepare calls of its underrun
# handling, which a slow guest can enter just before the card goes.
#
# The arguments name the ways the card goes, all three by default. The
# revoke needs revokeat(2) of this series; the unbind and the unplug end
# aplay as Linux 6.12 does, and base.suite runs only those two.

. "$(dirname "$0")/testlib.sh"

ways=${*:-unbind revoke unplug}
for way in $ways; do
	case $way in
	unbind | revoke | unplug) ;;
	*)
		echo "usage: $0 [unbind] [revoke] [unplug]" >&2
		exit 2
		;;
	esac
done
# wants WAY: whether the card goes away that way in this run.
wants() {
	case " $ways " in
	*" $1 "*) true ;;
	*) false ;;
	esac
}

log=$(mktemp)
dummy_driver=/sys/bus/platform/drivers/snd_dummy

# play_until_gone CARD MODE_ARGS GONE_CMD: start aplay, let it play, make the
# card go away with GONE_CMD, and report aplay's status and error.
play_until_gone() {
	card=$1
	mode=$2
	gone=$3
	aplay -q -D "hw:$card,0" -t raw -f S16_LE -c 2 -r 48000 $mode /dev/zero 2>"$log" &
	player=$!
	sleep 2
	$gone
	waited=0
	while kill -0 "$player" 2>/dev/null && [ $waited -lt 100 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	if kill -0 "$player" 2>/dev/null; then
		kill -9 "$player"
		status=killed
	else
		wait "$player"
		status=$?
	fi
	error=$(grep -o -E '(write|status|prepare) error: .*|read/write error, state = .*' "$log" |
		head -n 1)
	diag "aplay $mode: status $status after $((waited / 10)).$((waited % 10)) s, '$error'"
	[ -n "$error" ] || sed 's/^/# aplay said: /' "$log"
}

exited_with_error() {
	[ "$status" != killed ] && [ "$status" != 0 ] &&
		case $error in
		"write error: No such device" | "write error: File descriptor in bad state") true ;;
		"status error: No such device" | "prepare error: No such device") true ;;
		"read/write error, state = DISCONNECTED") true ;;
		*) false ;;
		esac
}

# The unbind runs in the background: aplay's end is what is checked here,
# whether the unbind returns first or not.
unbind_dummy() {
	echo snd_dummy.0 >"$dummy_driver/unbind" &
	unbinder=$!
}

rebind_dummy() {
	wait "$unbinder"
	[ -e "$dummy_driver/snd_dummy.0" ] || echo snd_dummy.0 >"$dummy_driver/bind"
}

plays_briefly() {
	aplay -q -D "hw:$1,0" -t raw -f S16_LE -c 2 -r 48000 -d 1 /dev/zero
}

dummy_present() { [ -n "$(card_number 'Dummy')" ]; }
usb_absent() { [ -z "$(card_number 'USB-Audio')" ]; }

wants unbind && for mode in "" "-M"; do
	card=$(card_number 'Dummy')
	play_until_gone "$card" "$mode" unbind_dummy
	ok "snd-dummy unbind ends aplay $mode with a device error" exited_with_error
	rebind_dummy
	ok "snd-dummy is back after rebind" wait_until 10 dummy_present
	ok "rebound snd-dummy plays" plays_briefly "$(card_number 'Dummy')"
done

# revokeat(2) releases aplay's file as the unbind does, and the card stays.
revoke_pcm() { /tests/revoke "/dev/snd/pcmC${card}D0p"; }
wants revoke && for mode in "" "-M"; do
	card=$(card_number 'Dummy')
	play_until_gone "$card" "$mode" revoke_pcm
	ok "revoke of the PCM node ends aplay $mode with a device error" exited_with_error
	ok "the card is the same after the revoke" [ "$(card_number 'Dummy')" = "$card" ]
	ok "the revoked card plays at once" plays_briefly "$card"
done

usb_unplug() { host_request device_del '{"id": "usbaudio"}'; }
wants unplug && for mode in "" "-M"; do
	ok "USB audio card present" wait_until 10 usb_audio_ready
	play_until_gone "$(card_number 'USB-Audio')" "$mode" usb_unplug
	ok "USB unplug ends aplay $mode with a device error" exited_with_error
	ok "USB audio card gone after unplug" wait_until 10 usb_absent
	host_request device_add '{"driver": "usb-audio", "id": "usbaudio", "audiodev": "snd0", "bus": "xhci.0"}'
	ok "USB audio card back after replug" wait_until 20 usb_audio_ready
	ok "replugged USB audio card plays" plays_briefly "$(card_number 'USB-Audio')"
done

rm -f "$log"
tap_done
