"""Which failed guest runs Tests/e2e/run boots once more: only those that say nothing about the
kiosk (python3 -m unittest discover -s Tests/e2e/lib -p 'test_*.py')."""
import unittest

from e2e import qemu
from e2e.main import why_boot_again

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


if __name__ == "__main__":
    unittest.main()
