"""How scripts/run-guest and scripts/splat.py judge a boot: each case is a
way a broken kernel or a broken suite could otherwise pass."""

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, SCRIPTS)

import splat  # noqa: E402


def load_run_guest():
    loader = importlib.machinery.SourceFileLoader("run_guest", f"{SCRIPTS}/run-guest")
    spec = importlib.util.spec_from_loader("run_guest", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


run_guest = load_run_guest()


def feed(lines):
    results = run_guest.Results()
    for line in lines:
        results.line(line)
    return results


class ResultsTest(unittest.TestCase):
    SUITE = ["a", "b x"]

    def test_a_whole_suite_passes(self):
        r = feed(["guest-test-begin: a", "ok 1 one", "guest-test-end: a rc=0",
                  "guest-test-begin: b x", "ok 1 two", "guest-test-end: b rc=0",
                  "guest-suite-end: ran 2"])
        r.judge_suite(self.SUITE)
        self.assertEqual((r.passed, r.failed), (2, 0))

    def test_a_suite_that_stops_early_fails(self):
        r = feed(["guest-test-begin: a", "ok 1 one", "guest-test-end: a rc=0"])
        r.judge_suite(self.SUITE)
        self.assertEqual(r.failed, 1)
        self.assertIn("did not end", r.failures[0])

    def test_a_suite_that_ran_fewer_lines_fails(self):
        r = feed(["guest-test-begin: a", "guest-test-end: a rc=0",
                  "guest-suite-end: ran 1"])
        r.judge_suite(self.SUITE)
        self.assertEqual(r.failed, 1)

    def test_other_lines_than_the_suite_file_fail(self):
        r = feed(["guest-test-begin: b x", "guest-test-end: b rc=0",
                  "guest-test-begin: a", "guest-test-end: a rc=0",
                  "guest-suite-end: ran 2"])
        r.judge_suite(self.SUITE)
        self.assertEqual(r.failed, 1)
        self.assertIn("stale initramfs", r.failures[0])

    def test_a_begin_while_a_test_is_open_fails_that_test(self):
        r = feed(["guest-test-begin: a", "ok 1 one",
                  "guest-test-begin: b x", "guest-test-end: b rc=0"])
        self.assertEqual(r.failed, 1)
        self.assertIn("a: no end", r.failures[0])

    def test_a_non_zero_exit_without_a_failed_result_fails(self):
        r = feed(["guest-test-begin: a", "ok 1 one", "guest-test-end: a rc=1"])
        self.assertEqual((r.passed, r.failed), (1, 1))

    def test_a_skip_is_not_a_pass(self):
        r = feed(["guest-test-begin: a", "ok 1 one # SKIP no card",
                  "guest-test-end: a rc=0"])
        self.assertEqual((r.passed, r.failed), (0, 1))

    def test_results_outside_a_test_do_not_count(self):
        r = feed(["ok 1 stray"])
        self.assertEqual((r.passed, r.failed), (0, 0))


class SuiteTest(unittest.TestCase):
    def test_settings_are_not_part_of_a_line(self):
        with tempfile.TemporaryDirectory() as top:
            os.makedirs(f"{top}/userspace-tests")
            with open(f"{top}/userspace-tests/s.suite", "w") as f:
                f.write("# kernel: leak\n\n  timeout=9 A_B=1 prog -x 1\nprog2\n")
            saved, run_guest.TOP = run_guest.TOP, top
            try:
                self.assertEqual(run_guest.suite_tests("s"), ["prog -x 1", "prog2"])
                self.assertEqual(run_guest.suite_header("s", "kernel"), "leak")
            finally:
                run_guest.TOP = saved


LOCKDEP_REPORT = """\
[   40.8] ============================================
[   40.8] WARNING: possible recursive locking detected
[   40.8] 6.12.118 #1 Not tainted
[   40.8] --------------------------------------------
[   40.8] stack backtrace:
[   40.8] Call Trace:
[   40.8]  <TASK>
""".splitlines()


class ScannerTest(unittest.TestCase):
    def scan(self, lines):
        scanner = splat.Scanner()
        for line in lines:
            scanner.feed(line)
        return scanner

    def test_a_call_trace_belongs_to_its_report(self):
        self.assertEqual(len(self.scan(LOCKDEP_REPORT).reports), 1)

    def test_a_call_trace_alone_is_a_report(self):
        self.assertEqual(len(self.scan(["[ 1.0] Call Trace:"]).reports), 1)

    def test_an_expected_report_passes(self):
        s = self.scan(LOCKDEP_REPORT)
        self.assertEqual(s.unexpected(re.compile("possible recursive locking")), [])

    def test_another_report_beside_the_expected_one_fails(self):
        s = self.scan(LOCKDEP_REPORT + ["[ 41.0] BUG: KASAN: slab-use-after-free in x"])
        self.assertEqual(len(s.unexpected(re.compile("possible recursive locking"))), 1)

    def test_every_kind_of_report_is_found(self):
        for line in ["BUG: sleeping function called from invalid context",
                     "WARNING: CPU: 0 PID: 1 at fs/revoke.c:1 f+0x0/0x1",
                     "INFO: task agetty:80 blocked for more than 30 seconds.",
                     "watchdog: BUG: soft lockup - CPU#1 stuck for 26s!",
                     "Oops: general protection fault", "UBSAN: array-index-out-of-bounds",
                     "WARNING: suspicious RCU usage", "ODEBUG: free active (active state 0)"]:
            self.assertEqual(len(self.scan([line]).reports), 1, line)

    def test_the_command_fails_on_an_unexpected_report_only(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as log:
            log.write("\n".join(LOCKDEP_REPORT) + "\n")
            log.flush()
            cmd = [sys.executable, f"{SCRIPTS}/splat.py"]
            self.assertEqual(subprocess.run(cmd + [log.name], capture_output=True).returncode, 1)
            self.assertEqual(subprocess.run(cmd + ["--expect", "recursive locking", log.name],
                                            capture_output=True).returncode, 0)


if __name__ == "__main__":
    unittest.main()
