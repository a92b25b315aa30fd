#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel-facts.sh: what the benchmark ran on, so that its figures can be
# read: the build's preemption flags (uname -v says PREEMPT_DYNAMIC or
# PREEMPT, nothing for none), the model in force where debugfs shows it,
# and the kernel's view of each CPU vulnerability, whose mitigation is part
# of every system call. Prints "fact: NAME VALUE" lines.
echo "fact: build $(uname -v | sed 's/ [A-Z][a-z][a-z] .*//')"
if [ -r /sys/kernel/debug/sched/preempt ]; then
	# "none (voluntary) full": the one in parentheses is in force.
	echo "fact: preempt $(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt)"
fi
for f in /sys/devices/system/cpu/vulnerabilities/*; do
	if [ -r "$f" ]; then
		echo "fact: ${f##*/} $(cat "$f")"
	fi
done
