# SPDX-License-Identifier: GPL-2.0
# shell_prompt ?SEEN_VAR?: wait, in an expect script, for the prompt of
# the login shell on the spawned terminal ("$ "), which may come in
# several reads, and answer busybox ash's cursor position query, which it
# sends after the prompt and reads before the command. Returns whether
# the prompt came; what came is stored in SEEN_VAR if one is named.
proc shell_prompt {{seen_var ""}} {
	if {$seen_var ne ""} {
		upvar 1 $seen_var seen
	}
	set seen ""
	set prompt 0
	expect {
		-re {.+} {
			append seen $expect_out(buffer)
			if {![regexp {\$ (\033\[6n)?$} $seen]} {
				exp_continue
			}
			set prompt 1
		}
	}
	if {!$prompt} {
		return 0
	}
	if {[string match "*\033\[6n" $seen]} {
		send "\033\[1;3R"
	} else {
		expect -timeout 2 -re {\033\[6n} { send "\033\[1;3R" }
	}
	return 1
}
