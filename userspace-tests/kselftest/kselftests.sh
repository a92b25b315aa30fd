#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftests.sh TARGET: run a target of the kernel's selftests the way
# their documentation says, "make -C tools/testing/selftests
# TARGETS=TARGET run_tests", in the kernel tree the guest carries at
# /linux (built on the host), and report each test of each program as a
# result of this one, named after the program.
#
# The runner nests a program's TAP under "# " and closes it with one
# result of its own, made from the exit status. That result is passed on
# only when it fails and no test of the program did (a crash, a timeout,
# a bad exit). A program whose tests fall short of its plan fails, and
# so does a run that reports fewer programs than it planned.

target=$1
tree=${KSELFTEST_TREE:-/linux/tools/testing/selftests}

# bash for make's shell: busybox sh runs its own readlink, which has no -e.
make -s -C "$tree" SHELL=/bin/bash TARGETS="$target" run_tests 2>&1 | {
	planned=
	programs=0
	failed=0
	prog=
	prog_planned=
	prog_results=0
	prog_failed=0

	# Results are numbered anew: the programs' numbers repeat.
	results=0
	pass() {
		results=$((results + 1))
		echo "ok $results $1"
	}
	fail() {
		results=$((results + 1))
		failed=$((failed + 1))
		echo "not ok $results $1"
	}

	close_program() {
		[ -n "$prog" ] || return 0
		if [ "$prog_planned" != "$prog_results" ]; then
			fail "$prog: ran $prog_results of ${prog_planned:-no} planned tests"
		fi
	}

	while IFS= read -r line; do
		case $line in
		"1.."[0-9]*)
			planned=${line#1..} ;;
		"# selftests: $target: "*)
			close_program
			prog=${line#"# selftests: $target: "}
			prog_planned=
			prog_results=0
			prog_failed=0
			echo "$line" ;;
		"# 1.."[0-9]*)
			prog_planned=${line#"# 1.."}
			echo "$line" ;;
		"# ok "[0-9]*)
			prog_results=$((prog_results + 1))
			result=${line#"# ok "}
			pass "$prog: ${result#* }" ;;
		"# not ok "[0-9]*)
			prog_results=$((prog_results + 1))
			prog_failed=$((prog_failed + 1))
			result=${line#"# not ok "}
			fail "$prog: ${result#* }" ;;
		"ok "[0-9]*" selftests: $target: "*)
			programs=$((programs + 1))
			case $line in
			*"# SKIP"*) fail "$prog: skipped" ;;
			esac ;;
		"not ok "[0-9]*" selftests: $target: "*)
			programs=$((programs + 1))
			case $line in
			*" # "*) why=${line#*" # "} ;;
			*) why=failed ;;
			esac
			[ "$prog_failed" != 0 ] || fail "$prog: $why" ;;
		"#"*)
			echo "$line" ;;
		*)
			echo "# $line" ;;
		esac
	done
	close_program
	if [ -z "$planned" ] || [ "$programs" != "$planned" ]; then
		fail "$target: the runner reported $programs of ${planned:-no} planned programs"
	fi
	[ "$failed" = 0 ]
}
