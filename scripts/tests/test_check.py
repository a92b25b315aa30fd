"""How scripts/check adds up the counts of its steps (add_counts in
scripts/lib.sh)."""

import os
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def add_counts(*texts):
    """Run add_counts over TEXTS under lib.sh's errexit and pipefail, from
    0 passed and 0 failed; returns what it printed after them."""
    calls = "".join(f'add_counts "${i + 1}"; ' for i in range(len(texts)))
    script = (f'. {TOP}/scripts/lib.sh; passed=0; failed=0; {calls}'
              'echo "$passed passed, $failed failed"')
    out = subprocess.run(["bash", "-c", script, "bash", *texts],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


class AddCountsTest(unittest.TestCase):
    def test_last_count_of_each_step(self):
        self.assertEqual(add_counts("kunit: 3 passed, 1 failed\n7 passed, 2 failed",
                                    "nommu: 1 passed, 0 failed"),
                         "8 passed, 2 failed")

    def test_step_without_count_is_one_failure_and_check_goes_on(self):
        self.assertEqual(add_counts("error: config fragments not satisfied",
                                    "harness: 5 passed, 0 failed"),
                         "5 passed, 1 failed")


if __name__ == "__main__":
    unittest.main()
