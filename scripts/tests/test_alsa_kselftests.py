"""How userspace-tests/alsa/alsa-kselftests.sh judges the kernel's ALSA
selftests: it is fed made-up selftest output, run under busybox sh."""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One result for each known failure of pcm-test, with its message after
# it, and an expected skip.
PCM_KNOWN = """\
ok 1 # SKIP default.time7.Dummy.0.0.PLAYBACK
# rate mismatch 96000 != 48000
not ok 2 default.time3.Dummy.0.0.CAPTURE
# expected 44100, wrote -32
not ok 3 default.time3.Dummy.0.0.PLAYBACK
# expected 44100, wrote 16384
not ok 4 default.time4.pcmtest.0.0.CAPTURE
# expected 48000, wrote -5
not ok 5 default.time4.pcmtest.0.0.PLAYBACK
# expected 48000, wrote 4096
ok 6 default.time1.Dummy.0.0.PLAYBACK
"""


@unittest.skipUnless(shutil.which("busybox"), "needs busybox (scripts/deps installs it)")
class AlsaKselftestsTest(unittest.TestCase):
    def judge(self, test, output, plan=None):
        """Run the script on a selftest that prints OUTPUT; returns its
        exit status and what it printed."""
        lines = [l for l in output.splitlines() if l.startswith(("ok ", "not ok "))]
        output = f"TAP version 13\n1..{plan or len(lines)}\n{output}"
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(f"{tmp}/alsa-kselftests")
            shutil.copy(f"{TOP}/userspace-tests/alsa/alsa-kselftests.sh", tmp)
            with open(f"{TOP}/userspace-tests/lib/testlib.sh") as f:
                testlib = f.read()
            with open(f"{tmp}/testlib.sh", "w") as f:
                f.write(testlib + "usb_audio_ready() { true; }\n")
            with open(f"{tmp}/out", "w") as f:
                f.write(output)
            with open(f"{tmp}/alsa-kselftests/{test}", "w") as f:
                f.write(f"#!/bin/sh\ncat {tmp}/out\n")
            os.chmod(f"{tmp}/alsa-kselftests/{test}", 0o755)
            p = subprocess.run(["busybox", "sh", f"{tmp}/alsa-kselftests.sh", test],
                               capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout

    def test_known_failures_and_expected_skips_pass(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN)
        self.assertEqual(rc, 0, out)
        self.assertIn("# known failure: pcm-test: default.time3.Dummy.0.0.CAPTURE", out)
        self.assertIn("# skipped: pcm-test: default.time7.Dummy.0.0.PLAYBACK", out)

    def test_another_cards_progress_between_a_result_and_its_message(self):
        # As pcm-test printed it: the thread of Loopback says what it tests
        # next between the skip of pcmtest and that skip's message.
        rc, out = self.judge("pcm-test", PCM_KNOWN.replace(
            "ok 6 default.time1.Dummy.0.0.PLAYBACK\n",
            "ok 6 # SKIP default.time7.pcmtest.0.6.CAPTURE\n"
            "# default.time4.Loopback.1.6.CAPTURE hw_params.RW_INTERLEAVED"
            ".S16_LE.48000.2.512.4096 sw_params.512\n"
            "# rate mismatch 96000 != 48000\n"))
        self.assertEqual(rc, 0, out)
        self.assertIn("# skipped: pcm-test: default.time7.pcmtest.0.6.CAPTURE", out)

    def test_a_known_failure_with_another_message_fails(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN.replace("wrote -5", "wrote -22"))
        self.assertEqual(rc, 1)
        self.assertIn("not ok 4 pcm-test: default.time4.pcmtest.0.0.CAPTURE: "
                      "expected 48000, wrote -22", out)

    def test_a_known_failure_that_passes_fails(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN.replace(
            "not ok 2 default.time3.Dummy.0.0.CAPTURE\n# expected 44100, wrote -32\n",
            "ok 2 default.time3.Dummy.0.0.CAPTURE\n"))
        self.assertEqual(rc, 1)
        self.assertIn("known failure default.time[356].Dummy.*.CAPTURE", out)

    def test_a_skip_for_a_hw_params_error_fails(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN.replace(
            "# rate mismatch 96000 != 48000", "# snd_pcm_hw_params: Invalid argument"))
        self.assertEqual(rc, 1)
        self.assertIn("unexpected skip: snd_pcm_hw_params: Invalid argument", out)

    def test_an_expected_skip_on_another_card_fails(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN.replace(
            "SKIP default.time7.Dummy", "SKIP default.time7.Loopback"))
        self.assertEqual(rc, 1)

    def test_fewer_results_than_planned_fail(self):
        rc, out = self.judge("pcm-test", PCM_KNOWN, plan=7)
        self.assertEqual(rc, 1)
        self.assertIn("6 of 7 planned results", out)

    def test_mixer_test_skip_reasons_come_before_the_skip(self):
        mixer = """\
# Loopback.9 PCM Slave Rate
ok 1 name.Loopback.9
# PCM Slave Rate is not writeable
ok 2 # SKIP write_default.Loopback.9
# Dummy.1 Master Capture Switch
# No event generated for Master Capture Switch
ok 3 write_default.Dummy.1
not ok 4 event_missing.Dummy.1
# Audio.2 Audio Output Volume Control Playback Volume
# Spurious event generated for Audio Output Volume Control Playback Volume
ok 5 write_default.Audio.2
not ok 6 event_spurious.Audio.2
# Loopback.6 PCM Notify
# 1.6 PCM Notify is a writeable boolean but not a Switch
not ok 7 name.Loopback.6
"""
        rc, out = self.judge("mixer-test", mixer)
        self.assertEqual(rc, 0, out)
        rc, out = self.judge("mixer-test", mixer.replace(
            "PCM Slave Rate is not writeable", "PCM Slave Rate is inactive"))
        self.assertEqual(rc, 1)
        rc, out = self.judge("mixer-test", mixer.replace(
            "# No event generated for Master Capture Switch\n", ""))
        self.assertEqual(rc, 1)

    def test_pcmtest_driver_skips_fail(self):
        rc, out = self.judge("test-pcmtest-driver", "ok 1 # SKIP no root\n")
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
