#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# alsa-kselftests.sh TEST: run one of the kernel's own ALSA selftests
# (tools/testing/selftests/alsa: mixer-test, pcm-test, test-pcmtest-driver)
# on every card of the guest, and pass its TAP results on, each named after
# TEST. The test fails on a failed result that is not a known failure
# (below), on an error the selftest reports without a failed result, if it
# does not report every result it planned, and if it does not exit 0.
#
# mixer-test and pcm-test skip what a card cannot do: a control that cannot
# be written, a rate the card does not play. Their skips are listed but do
# not count. test-pcmtest-driver skips only without root or without the
# snd-pcmtest driver, which the guest has: its skips count as failures.

. "$(dirname "$0")/testlib.sh"

test=$1
status=$(mktemp)

# known_failure NAME: why the selftest's result NAME fails on the guest's
# cards, on the unpatched kernel as well; false for any other result. The
# control numbers of a card are its own: those of snd-aloop's 'PCM Notify'
# change with its substream count, hence all of its name tests.
known_failure() {
	case $test:$1 in
	mixer-test:name.Loopback.*)
		echo "snd-aloop's writable boolean 'PCM Notify' is not named '... Switch'" ;;
	mixer-test:event_missing.Dummy.[13579])
		echo "snd-dummy's capture switches change only if both channels change (&& for ||)" ;;
	mixer-test:event_spurious.Audio.2)
		echo "QEMU's usb-audio starts at 0 dB, off the driver's volume steps: writing back what was read moves it" ;;
	pcm-test:default.time[356].Dummy.*)
		echo "snd-dummy's 64 KiB buffer holds a single period of this size, which always runs dry" ;;
	pcm-test:default.time4.pcmtest.*)
		echo "snd-pcmtest moves its pointer 5 times a second, by more than this 4096-frame buffer" ;;
	*) return 1 ;;
	esac
}

# report: pass the selftest's output on, judging each line. pcm-test runs
# a thread per card and prints a comment as "# " and its text in two
# calls, so a result of another thread can come as "# ok ...", or with
# more "# " before it.
report() {
	planned=
	results=0
	failed=0
	while IFS= read -r line; do
		result=$line
		while [ "${result#\# }" != "$result" ]; do
			result=${result#\# }
		done
		case $result in
		"ok "[0-9]* | "not ok "[0-9]*) line=$result ;;
		esac
		case $line in
		"ok "[0-9]* | "not ok "[0-9]*)
			results=$((results + 1))
			verdict=${line%%[0-9]*}
			number=${line#"$verdict"}
			name=${number#* }
			number=${number%% *}
			;;
		esac
		case $line in
		"ok "[0-9]*"# SKIP"*)
			case $test in
			mixer-test | pcm-test) echo "# skipped: $test: ${line#*# SKIP }" ;;
			*)
				failed=$((failed + 1))
				echo "ok $number $test: $name"
				;;
			esac
			;;
		"not ok "[0-9]*)
			if reason=$(known_failure "$name"); then
				echo "# known failure: $test: $name: $reason"
			else
				failed=$((failed + 1))
				echo "not ok $number $test: $name"
			fi
			;;
		"ok "[0-9]*) echo "ok $number $test: $name" ;;
		1..[0-9]*)
			planned=${line#1..}
			echo "$line"
			;;
		# Errors without a failed result: a card whose controls do not
		# open is left out (mixer-test, pcm-test), a PCM that does not
		# open is a skip (pcm-test).
		"# Failed to get hctl for card"* | "# Failed to get pcm handle"*)
			failed=$((failed + 1))
			printf '%s\n' "$line"
			echo "not ok $results $test: ${line#\# }"
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done
	rc=$(cat "$status")
	rm -f "$status"
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
