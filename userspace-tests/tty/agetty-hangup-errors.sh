#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# agetty-hangup-errors.sh: agetty -R built with patches/util-linux/ that
# cannot hang up its line names the call that failed, with that call's
# errno, and exits without showing a prompt.
#
# - Without CAP_SYS_ADMIN, on a line that is another session's controlling
#   tty: TIOCVHANGUP fails with EPERM, and vhangup() cannot stand in (the
#   line is not agetty's controlling tty, and agetty may not steal it).
# - Without CAP_SYS_ADMIN and CAP_SYS_TTY_CONFIG, on a free line: agetty
#   takes it as its controlling tty, TIOCVHANGUP fails, and so does the
#   vhangup() it falls back to.
#
# agetty reports through syslog(3): a syslogd of the test's own collects it.

. "$(dirname "$0")/testlib.sh"

line=ttyS1
dir=$(mktemp -d)
log=$dir/messages

syslogd -n -O "$log" &
syslogd=$!
wait_until 10 test -S /dev/log || diag "no /dev/log from syslogd"

# agetty_fails CAPS MESSAGE: run agetty -R on the line without the
# capabilities CAPS; it must exit with a failure and log MESSAGE.
agetty_fails() {
	/usr/bin/setpriv --bounding-set "$1" setsid /usr/local/sbin/agetty -R -L -i -8 \
		$line vt100 </dev/null >/dev/null 2>&1 &
	getty=$!
	wait $getty
	status=$?
	ok "agetty without $1 exits with a failure (status $status)" \
		test "$status" -ne 0
	logged=no
	wait_until 5 grep -qF "agetty[$getty]: /dev/$line: $2" "$log" && logged=yes
	ok "agetty without $1 logs \"$2\"" test $logged = yes
	[ $logged = yes ] || grep -F "agetty[$getty]" "$log" |
		while read -r entry; do diag "syslog: $entry"; done
}

# The line as another session's controlling tty: a session leader opens
# it without O_NOCTTY.
setsid sh -c "exec 3<>/dev/$line; exec sleep 600" &
owner=$!
# Field 7 of /proc/PID/stat is the controlling tty, 4:65 for ttyS1.
owns_line() {
	[ "$(cut -d' ' -f7 "/proc/$owner/stat" 2>/dev/null)" = 1089 ]
}
ok "another session has $line as its controlling tty" wait_until 10 owns_line
agetty_fails -sys_admin "TIOCVHANGUP failed: Operation not permitted"
kill -KILL $owner
wait $owner 2>/dev/null

agetty_fails -sys_admin,-sys_tty_config "vhangup() failed: Operation not permitted"

kill $syslogd
wait $syslogd 2>/dev/null
rm -rf "$dir" /dev/log
tap_done
