#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# alsa-kselftests.sh TEST: run one of the kernel's own ALSA selftests
# (tools/testing/selftests/alsa: mixer-test, pcm-test, test-pcmtest-driver)
# on every card of the guest, and pass its TAP results on, each named after
# TEST. The test fails on a failed result that is not a known failure, on
# a skip that is not an expected one (below), on a known failure that
# passes, on an error the selftest reports without a failed result, if it
# does not report every result it planned, and if it does not exit 0.
#
# A known failure or an expected skip is pinned by the result's name, its
# card included, and by what the selftest says of it: pcm-test reports any
# hw_params or sw_params error as a skip, so a skip for another reason, or
# on another card, is a failure of the kernel. A known failure that no
# result hits any more fails too: it is to be taken off the list.

. "$(dirname "$0")/testlib.sh"

test=$1
status=$(mktemp)
hits=$(mktemp)

# Each line: TEST|RESULT|MESSAGE|WHY, RESULT and MESSAGE shell patterns.
# MESSAGE is what the selftest says of the result: mixer-test before it,
# anything it printed about that control; pcm-test the line after it. These
# fail on the unpatched kernel as well. The control numbers of a card are
# its own: those of snd-aloop's 'PCM Notify' change with its substream
# count, hence all of its name tests.
known_failures() {
	cat <<'LIST'
mixer-test|name.Loopback.*|*PCM Notify is a writeable boolean but not a Switch*|snd-aloop's writable boolean 'PCM Notify' is not named '... Switch'
mixer-test|event_missing.Dummy.[13579]|*No event generated for * Capture Switch*|snd-dummy's capture switches change only if both channels change (&& for ||)
mixer-test|event_spurious.Audio.2|*Spurious event generated for Audio Output Volume Control Playback Volume*|QEMU's usb-audio starts at 0 dB, off the driver's volume steps: writing back what was read moves it
pcm-test|default.time[356].Dummy.*.CAPTURE|expected *, wrote -32|snd-dummy's 64 KiB buffer holds a single period of this size, which always overruns (EPIPE)
pcm-test|default.time[356].Dummy.*.PLAYBACK|expected *, wrote 16384|snd-dummy's 64 KiB buffer holds a single period of this size, which always runs dry after the 16384 frames that fill it
pcm-test|default.time4.pcmtest.*.CAPTURE|expected 48000, wrote -5|snd-pcmtest moves its pointer 5 times a second, by more than this 4096-frame buffer (EIO)
pcm-test|default.time4.pcmtest.*.PLAYBACK|expected 48000, wrote 4096|snd-pcmtest moves its pointer 5 times a second, by more than this 4096-frame buffer, which runs dry
LIST
}

# Each line: TEST|RESULT|REASON|WHY: the skips the guest's cards make,
# REASON the message the selftest gives for the skip.
expected_skips() {
	cat <<'LIST'
mixer-test|write_*.Audio.0|Playback Channel Map is not writeable|usb-audio's channel map is read-only
mixer-test|write_*.Loopback.*|PCM Slave * is not writeable|snd-aloop's 'PCM Slave' controls report the other end's stream, read-only
pcm-test|default.time1.Audio.0.0.PLAYBACK|snd_pcm_hw_params_set_channels 1: Invalid argument|QEMU's usb-audio plays stereo only
pcm-test|default.time[237].Audio.0.0.PLAYBACK|rate mismatch * != 48000|QEMU's usb-audio plays at 48 kHz only
pcm-test|default.time7.Dummy.*|rate mismatch 96000 != 48000|snd-dummy's rates stop at 48 kHz
pcm-test|default.time7.pcmtest.*|rate mismatch 96000 != 48000|snd-pcmtest's rates stop at 48 kHz
LIST
}

# lookup LIST RESULT MESSAGE: the WHY of the first line of the list
# (known_failures or expected_skips) that matches, and note that it did
# in $hits; false if none does.
lookup() {
	"$1" | {
		n=0
		while IFS='|' read -r t pattern message why; do
			n=$((n + 1))
			[ "$t" = "$test" ] || continue
			case $2 in $pattern) ;; *) continue ;; esac
			case $3 in $message) ;; *) continue ;; esac
			echo "$1:$n" >>"$hits"
			echo "$why"
			exit 0
		done
		exit 1
	}
}

# unhit_known_failures: the known failures of this test that no result hit.
unhit_known_failures() {
	known_failures | {
		n=0
		while IFS='|' read -r t pattern message why; do
			n=$((n + 1))
			[ "$t" = "$test" ] || continue
			grep -qx "known_failures:$n" "$hits" || echo "$pattern ($why)"
		done
	}
}

# judge VERDICT NUMBER NAME MESSAGE: one result of the selftest.
judge() {
	case $1 in
	skip)
		if [ "$test" = test-pcmtest-driver ]; then
			# It skips only without root or without snd-pcmtest.
			fail "$2" "$3: skipped: $4"
		elif why=$(lookup expected_skips "$3" "$4"); then
			echo "# skipped: $test: $3: $why"
		else
			fail "$2" "$3: unexpected skip: $4"
		fi
		;;
	fail)
		if why=$(lookup known_failures "$3" "$4"); then
			echo "# known failure: $test: $3: $why"
		else
			fail "$2" "$3${4:+: $(printf '%s' "$4" | tail -n 1)}"
		fi
		;;
	pass) echo "ok $2 $test: $3" ;;
	esac
}

fail() {
	failed=$((failed + 1))
	echo "not ok $1 $test: $2"
}

# control NAME: the control a mixer-test result is about, "Card.N".
control() {
	echo "${1#*.}"
}

# report: pass the selftest's output on, judging each result with what the
# selftest said of it. pcm-test runs a thread per card and prints a
# comment as "# " and its text in two calls, so a result of another thread
# can come as "# ok ...", or with more "# " before it.
report() {
	planned=
	results=0
	failed=0
	pending=
	notes=
	about=
	while IFS= read -r line; do
		result=$line
		while [ "${result#\# }" != "$result" ]; do
			result=${result#\# }
		done
		case $result in
		"ok "[0-9]* | "not ok "[0-9]*) line=$result ;;
		esac
		case $line in
		"ok "[0-9]* | "not ok "[0-9]*) ;;
		"# "*)
			printf '%s\n' "$line"
			note=${line#\# }
			# pcm-test: the message after its result, but not a
			# line of another card's thread, which prints what it
			# is about to test ("CONFIG.TEST.CARD.D.S.DIR ...")
			# without the lock that keeps a result and its
			# message together.
			case ${note%% *} in
			*.PLAYBACK | *.CAPTURE) ;;
			*)
				if [ -n "$pending" ]; then
					judge $pending "$note"
					pending=
				fi
				;;
			esac
			notes="$notes$note
"
			case $note in
			# Errors without a failed result: a card whose
			# controls do not open is left out (mixer-test,
			# pcm-test), a PCM that does not open is a skip
			# (pcm-test).
			"Failed to get hctl for card"* | "Failed to get pcm handle"*)
				fail "$results" "$note" ;;
			esac
			continue
			;;
		1..[0-9]*)
			planned=${line#1..}
			echo "$line"
			continue
			;;
		*)
			printf '%s\n' "$line"
			continue
			;;
		esac
		if [ -n "$pending" ]; then
			judge $pending ""
			pending=
		fi
		results=$((results + 1))
		verdict=${line%%[0-9]*}
		number=${line#"$verdict"}
		name=${number#* }
		number=${number%% *}
		case $verdict:$name in
		"ok :# SKIP "*) verdict=skip name=${name#\# SKIP } ;;
		"ok :"*) verdict=pass ;;
		*) verdict=fail ;;
		esac
		case $test in
		pcm-test)
			pending="$verdict $number $name"
			;;
		*)
			# mixer-test: what it said of this control so far;
			# a skip's reason is the line just before it.
			[ "$(control "$name")" = "$about" ] || { about=$(control "$name"); said=; }
			said="$said$notes"
			if [ "$verdict" = skip ]; then
				reason=$(printf '%s' "$notes" | tail -n 1)
				judge skip "$number" "$name" "$reason"
			else
				judge "$verdict" "$number" "$name" "$said"
			fi
			;;
		esac
		notes=
	done
	if [ -n "$pending" ]; then
		judge $pending ""
	fi
	unhit=$(unhit_known_failures)
	if [ -n "$unhit" ]; then
		printf '%s\n' "$unhit" | while IFS= read -r known; do
			echo "not ok $results $test: known failure $known passes now: take it off the list"
		done
		failed=$((failed + $(printf '%s\n' "$unhit" | wc -l)))
	fi
	rc=$(cat "$status")
	rm -f "$status" "$hits"
	diag "$test: exit status $rc, $results of ${planned:-no} planned results, $failed failed"
	[ "$rc" = 0 ] && [ "$results" = "$planned" ] && [ "$failed" = 0 ]
}

# A test before may have unplugged and replugged the USB audio card.
wait_until 20 usb_audio_ready || diag "no USB audio card"

# pcm-test reads pcm-test.conf and conf.d/ from its working directory.
cd "$(dirname "$0")/alsa-kselftests" || exit 1
start=$(date +%s)
{
	./"$test" 2>&1
	echo $? >"$status"
} | report
judged=$?
diag "$test took $(($(date +%s) - start)) s"
exit $judged
