# SPDX-License-Identifier: GPL-2.0
# TAP output for expect scripts, in the form kselftest programs print.

set tap_count 0
set tap_failed 0

proc tap_plan {n} {
	puts "1..$n"
}

# ok CONDITION DESCRIPTION: one test line; a failed one is remembered so
# that tap_done exits non-zero.
proc ok {cond desc} {
	global tap_count tap_failed
	incr tap_count
	if {$cond} {
		puts "ok $tap_count $desc"
	} else {
		puts "not ok $tap_count $desc"
		incr tap_failed
	}
}

proc diag {text} {
	puts "# $text"
}

proc tap_done {} {
	global tap_failed
	exit [expr {$tap_failed ? 1 : 0}]
}

proc slurp {path} {
	if {[catch {open $path} f]} {
		return ""
	}
	set data [read $f]
	close $f
	return [string trim $data]
}

# wait_until SECONDS CONDITION: poll the expression, evaluated in the
# caller's scope, until it is true; returns whether it came true in time.
# The arguments come in the order of wait_until in testlib.sh.
proc wait_until {seconds cond} {
	set end [expr {[clock milliseconds] + $seconds * 1000}]
	while {![uplevel 1 [list expr $cond]]} {
		if {[clock milliseconds] > $end} {
			return 0
		}
		after 100
	}
	return 1
}

# wait_for_file PATH PATTERN SECONDS: poll until the file's content matches
# the glob pattern; returns the content seen last.
proc wait_for_file {path pattern seconds} {
	wait_until $seconds {[string match $pattern [set data [slurp $path]]]}
	return $data
}
