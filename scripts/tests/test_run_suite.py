"""The guest's scripts/guest/run-suite, run under busybox sh in a PID
namespace of its own, as the guest's init runs it."""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@unittest.skipUnless(shutil.which("busybox") and shutil.which("unshare") and os.geteuid() == 0,
                     "needs busybox, unshare and root (scripts/deps installs them)")
class RunSuiteTest(unittest.TestCase):
    def run_suite(self, suite, programs):
        """Run SUITE (the text of a suite file) with PROGRAMS (name: shell
        script) as /tests; returns the output and the processes left."""
        with tempfile.TemporaryDirectory() as tmp:
            tests = f"{tmp}/tests"
            os.makedirs(tests)
            for name, body in programs.items():
                with open(f"{tests}/{name}", "w") as f:
                    f.write("#!/bin/sh\n" + body)
                os.chmod(f"{tests}/{name}", 0o755)
            with open(f"{tests}/s.suite", "w") as f:
                f.write(suite)
            with open(f"{TOP}/scripts/guest/run-suite") as f:
                script = f.read().replace("/tests/", f"{tests}/")
            with open(f"{tmp}/run-suite", "w") as f:
                f.write(script)
            # PID 1 of the namespace stands for the guest's init. A process
            # that got SIGKILL may take a moment to die on a busy host:
            # what is left is counted once it had 5 s to.
            count = ("busybox ps -o stat,comm | busybox grep -v '^Z'"
                     " | busybox grep -c sleep")
            out = subprocess.run(
                ["unshare", "-fp", "--mount-proc", "busybox", "sh", "-c",
                 f"busybox sh {tmp}/run-suite s; i=0;"
                 f" while [ $({count}) != 0 ] && [ $i -lt 50 ]; do"
                 " busybox sleep 0.1; i=$((i + 1)); done;"
                 f" echo left: $({count})"],
                capture_output=True, text=True, timeout=60).stdout
        return out

    def test_every_line_runs_and_the_count_comes_last(self):
        out = self.run_suite("# c\n\na\nb 1 2\n", {"a": "echo a-ran\n", "b": "echo b-ran $*\n"})
        self.assertIn("a-ran", out)
        self.assertIn("b-ran 1 2", out)
        self.assertIn("guest-test-end: b rc=0", out)
        self.assertIn("guest-suite-end: ran 2", out.splitlines()[-2])

    def test_settings_go_to_the_environment_and_not_to_the_line(self):
        out = self.run_suite("N=3 M=x a y\n", {"a": "echo n=$N m=$M args=$*\n"})
        self.assertIn("guest-test-begin: a y\n", out)
        self.assertIn("n=3 m=x args=y", out)

    def test_the_time_limit_kills_the_test(self):
        out = self.run_suite("timeout=1 a\n", {"a": "sleep 30\n"})
        self.assertIn("guest-test-timeout: a after 1 s", out)
        self.assertIn("guest-test-end: a rc=137", out)

    def test_what_a_test_leaves_behind_is_killed(self):
        out = self.run_suite("a\n", {"a": "sleep 300 &\nsetsid sleep 300 &\nexit 3\n"})
        self.assertIn("guest-test-end: a rc=3", out)
        self.assertIn("left: 0", out)


if __name__ == "__main__":
    unittest.main()
