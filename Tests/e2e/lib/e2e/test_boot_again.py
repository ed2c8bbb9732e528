"""Which failed guest runs Tests/e2e/run boots once more: only those that say nothing about the
kiosk (python3 -m unittest discover -s Tests/e2e/lib -p 'test_*.py')."""
import shutil
import tempfile
import unittest
from pathlib import Path

from e2e import qemu
from e2e.main import run_booting_again, why_boot_again

BOOTING = "[  OK  ] Reached target timers.target - Timer Units.\n"
STARTED = BOOTING + "KIOSK-E2E: SCENARIO-START 59.93s\n         Starting kiosk.service - Kiosk menu on the display...\n"
FROZE = f"guest stalled: no serial output for 120s\n\n{qemu.AGENT_SILENT} (guest kernel hung, or the agent never started)\n"
ANSWERED = "guest stalled: no serial output for 120s\n\n### processes waiting in the kernel\nkiosk D drm_atomic_commit\n"


class BootAgain(unittest.TestCase):
    def test_hung_while_booting(self):
        self.assertIn("before the scenario started", why_boot_again(BOOTING, FROZE))
        self.assertIn("before the scenario started", why_boot_again(BOOTING, ""))

    def test_froze_after_the_start(self):
        self.assertIn("froze", why_boot_again(STARTED, FROZE))

    def test_a_stall_the_agent_explains_is_the_scenarios(self):
        self.assertIsNone(why_boot_again(STARTED, ANSWERED))
        self.assertIsNone(why_boot_again(STARTED, ""))

    def test_kernel_problems_and_setup_failures_are_never_retried(self):
        for bad in ("Kernel panic - not syncing", "BUG: kernel NULL pointer", "Oops: 0002", "KIOSK-E2E: FATAL no results disk"):
            self.assertIsNone(why_boot_again(BOOTING + bad + "\n", FROZE), bad)
            self.assertIsNone(why_boot_again(STARTED + bad + "\n", FROZE), bad)

    def test_no_console_at_all(self):
        self.assertIsNone(why_boot_again("", FROZE))


class RunBootingAgain(unittest.TestCase):
    """run_booting_again with a stand-in for run_scenario that writes what a guest run leaves."""

    def setUp(self):
        self.root = Path(tempfile.mkdtemp())
        self.out = self.root / "speech"
        self.addCleanup(shutil.rmtree, self.root)

    def runs(self, *results):
        """Each call empties out/ (as run_scenario does) and leaves the next (failures, serial, diagnosis)."""
        calls = []

        def run():
            failures, serial, diagnosis = results[len(calls)]
            calls.append(1)
            shutil.rmtree(self.out, ignore_errors=True)
            self.out.mkdir(parents=True)
            (self.out / "serial.log").write_text(serial)
            if diagnosis:
                (self.out / "diagnosis.txt").write_text(diagnosis)
            return failures, serial
        return run, calls

    def test_frozen_then_passing(self):
        run, calls = self.runs((["guest stalled: no serial output for 120s"], STARTED, FROZE), ([], STARTED + "KIOSK-E2E: DONE\n", ""))
        failures, serial, note = run_booting_again(run, self.out)
        self.assertEqual((failures, len(calls)), ([], 2))
        self.assertIn("booted twice: the first guest froze", note)
        self.assertIn("guest stalled", note)
        self.assertEqual((self.out / "first-boot-serial.log").read_text(), STARTED)
        self.assertFalse((self.root / "speech.first-boot-serial.log").exists())

    def test_hung_twice_fails(self):
        run, calls = self.runs((["guest stalled"], BOOTING, FROZE), (["guest stalled again"], BOOTING, FROZE))
        failures, _, note = run_booting_again(run, self.out)
        self.assertEqual((failures, len(calls)), (["guest stalled again"], 2))
        self.assertIn("before the scenario started", note)

    def test_a_scenario_failure_runs_once(self):
        run, calls = self.runs((["check failed: wrong screen"], STARTED + "KIOSK-E2E: DONE\n", ""))
        self.assertEqual(run_booting_again(run, self.out), (["check failed: wrong screen"], STARTED + "KIOSK-E2E: DONE\n", ""))
        self.assertEqual(len(calls), 1)

    def test_a_pass_runs_once(self):
        run, calls = self.runs(([], STARTED, ""))
        self.assertEqual(run_booting_again(run, self.out)[2], "")
        self.assertEqual(len(calls), 1)


if __name__ == "__main__":
    unittest.main()
