"""How userspace-tests/kselftest/kselftests.sh reports a target of the
kernel's selftests: it runs "make run_tests" in a made-up tree whose
Makefile prints what kselftest/runner.sh prints, under busybox sh."""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Two programs as the runner reports them: the program's TAP under "# ",
# then the runner's own result from its exit status.
PASSING = """\
TAP version 13
1..2
# timeout set to 600
# selftests: revoke: revoke-rw
# TAP version 13
# 1..2
# # Starting 2 tests from 1 test cases.
# #  RUN           rw.read ...
# #            OK  rw.read
# ok 1 rw.read
# #  RUN           rw.write ...
# #            OK  rw.write
# ok 2 rw.write
# # PASSED: 2 / 2 tests passed.
# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 1 selftests: revoke: revoke-rw
# timeout set to 600
# selftests: revoke: revoke-poll
# TAP version 13
# 1..1
# ok 1 poll.wakes
ok 2 selftests: revoke: revoke-poll
"""


@unittest.skipUnless(shutil.which("busybox") and shutil.which("make"),
                     "needs busybox and make (scripts/deps installs them)")
class KselftestsTest(unittest.TestCase):
    def report(self, output):
        """Run the script on a runner that prints OUTPUT; returns its exit
        status and what it printed."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(f"{tmp}/out", "w") as f:
                f.write(output)
            with open(f"{tmp}/Makefile", "w") as f:
                f.write(f"run_tests:\n\t@cat {tmp}/out\n")
            p = subprocess.run(["busybox", "sh",
                                f"{TOP}/userspace-tests/kselftest/kselftests.sh", "revoke"],
                               env=dict(os.environ, KSELFTEST_TREE=tmp),
                               capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout

    def results(self, out):
        return [l for l in out.splitlines() if l.startswith(("ok ", "not ok "))]

    def test_each_test_is_a_result_named_after_its_program(self):
        rc, out = self.report(PASSING)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.results(out), ["ok 1 revoke-rw: rw.read",
                                             "ok 2 revoke-rw: rw.write",
                                             "ok 3 revoke-poll: poll.wakes"])
        self.assertIn("# # PASSED: 2 / 2 tests passed.", out)

    def test_a_failed_test_fails_once(self):
        rc, out = self.report(PASSING.replace("# ok 2 rw.write", "# not ok 2 rw.write")
                              .replace("ok 1 selftests: revoke: revoke-rw",
                                       "not ok 1 selftests: revoke: revoke-rw # exit=1"))
        self.assertEqual(rc, 1)
        self.assertEqual([r for r in self.results(out) if r.startswith("not ok")],
                         ["not ok 2 revoke-rw: rw.write"])

    def test_a_program_that_fails_without_a_failed_test_fails(self):
        rc, out = self.report(PASSING.replace(
            "ok 2 selftests: revoke: revoke-poll",
            "#\nnot ok 2 selftests: revoke: revoke-poll # TIMEOUT 600 seconds"))
        self.assertEqual(rc, 1)
        self.assertIn("not ok 4 revoke-poll: TIMEOUT 600 seconds", out)

    def test_a_program_that_stops_short_of_its_plan_fails(self):
        rc, out = self.report(PASSING.replace("# ok 2 rw.write\n", ""))
        self.assertEqual(rc, 1)
        self.assertIn("not ok 2 revoke-rw: ran 1 of 2 planned tests", out)

    def test_a_skipped_program_fails(self):
        rc, out = self.report(PASSING.replace("ok 2 selftests: revoke: revoke-poll",
                                              "ok 2 selftests: revoke: revoke-poll # SKIP"))
        self.assertEqual(rc, 1)
        self.assertIn("not ok 4 revoke-poll: skipped", out)

    def test_a_run_short_of_its_programs_fails(self):
        rc, out = self.report(PASSING.replace("1..2\n", "1..3\n", 1))
        self.assertEqual(rc, 1)
        self.assertIn("not ok 4 revoke: the runner reported 2 of 3 planned programs", out)

    def test_a_run_that_reports_nothing_fails(self):
        rc, out = self.report("make: *** No rule to make target 'run_tests'.\n")
        self.assertEqual(rc, 1)
        self.assertIn("not ok 1 revoke: the runner reported 0 of no planned programs", out)


if __name__ == "__main__":
    unittest.main()
