#!/usr/bin/env python3
"""Find kernel reports (BUG, WARNING, KASAN, lockdep, hung task, Oops) in
a kernel log: the one judge of a log, for guest boots (scripts/run-guest)
and UML KUnit runs (scripts/kunit).

A report starts at a header line. The "Call Trace:" that follows belongs
to it; a call trace with no report before it is a report of its own.

As a command: splat.py [--expect REGEX]... LOG... prints every report
that matches no REGEX, one line each, and exits 1 if there is any.
"""

import argparse
import re
import sys

HEADER = re.compile(
    r"BUG:|WARNING:|Oops|general protection fault|Kernel panic"
    r"|possible circular locking|possible recursive locking"
    r"|inconsistent lock state|suspicious RCU usage"
    r"|DEBUG_LOCKS_WARN_ON|INFO: task .* blocked for more than"
    r"|soft lockup|hard LOCKUP|UBSAN|kernel BUG|list_add corruption"
    r"|list_del corruption|ODEBUG:")
TRACE = re.compile(r"Call Trace:")
# How far after its header a call trace is still that report's.
TRACE_REACH = 200


class Scanner:
    """Feed it a log line by line; .reports lists the first line of each
    report found."""

    def __init__(self):
        self.reports = []
        self.since_header = None

    @staticmethod
    def is_report(line):
        """Whether the line is a report's header or a call trace."""
        return bool(HEADER.search(line) or TRACE.search(line))

    def feed(self, line):
        if HEADER.search(line):
            self.reports.append(line.strip())
            self.since_header = 0
        elif TRACE.search(line):
            if self.since_header is None or self.since_header > TRACE_REACH:
                self.reports.append(line.strip())
            self.since_header = 0
        elif self.since_header is not None:
            self.since_header += 1

    def unexpected(self, *expected):
        """The reports that match none of the regexes @expected."""
        return [r for r in self.reports
                if not any(e and e.search(r) for e in expected)]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--expect", action="append", default=[], metavar="REGEX",
                   help="a report that may be in the log")
    p.add_argument("logs", nargs="+", metavar="LOG")
    args = p.parse_args()
    expected = [re.compile(e) for e in args.expect]
    found = 0
    for path in args.logs:
        scanner = Scanner()
        with open(path, errors="replace") as f:
            for line in f:
                scanner.feed(line)
        for report in scanner.unexpected(*expected):
            print(f"{path}: kernel report: {report}")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
