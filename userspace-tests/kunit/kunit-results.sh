#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kunit-results.sh SUITE...: report the KUnit suites built into the kernel,
# which ran at boot under the guest's debug options, one TAP line per test
# case. A suite that did not run, or a skipped case, fails.
. /tests/testlib.sh

cases=/tmp/kunit-cases
for suite in "$@"; do
	results=/sys/kernel/debug/kunit/$suite/results
	if [ ! -r "$results" ]; then
		ok "$suite ran at boot" false
		continue
	fi
	# Test cases are the result lines one level in.
	grep -E '^    (not )?ok [0-9]+ ' "$results" >"$cases"
	[ -s "$cases" ] || ok "$suite has test results" false
	while read -r verdict rest; do
		if [ "$verdict" = not ]; then
			ok "$suite: ${rest#ok [0-9]* }" false
		else
			name=${rest#[0-9]* }
			case $name in
			*"# SKIP"*) ok "$suite: $name" false ;;
			*) ok "$suite: $name" true ;;
			esac
		fi
	done <"$cases"
done
tap_done
