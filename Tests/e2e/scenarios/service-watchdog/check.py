"""A hung kiosk (its event loop stopped by kiosk-freeze-thread, the other threads running) is killed
by systemd's watchdog and restarted."""
import json


def check(r):
    r.expect_rc("install", 0)
    pid = int(r.text("pid-before.txt"))
    r.expect(int(r.text("watchdog-usec.txt").strip().rstrip("s") or 0) > 0 or "s" in r.text("watchdog-usec.txt"),
             f"no watchdog configured: {r.text('watchdog-usec.txt')}")
    r.expect(int(r.text("pid-healthy.txt")) == pid, "the healthy kiosk was restarted: WATCHDOG=1 pings are not arriving")
    journal = r.text("journal-kiosk.txt")
    freeze = r.text("freeze.txt")
    r.require(f"frozen thread {pid} " in freeze, f"the kiosk's event loop was not stopped: {freeze.strip()!r}")
    r.expect("Watchdog timeout" in journal, "the journal shows no watchdog timeout")
    after = int(r.text("pid-after.txt"))
    r.expect(after not in (0, pid), f"main PID after the hang: {after}")
    r.expect(int(r.text("restarts.txt")) >= 1, "NRestarts did not count the restart")
    status = json.loads(r.text("status-after.json"))
    r.expect(status["pid"] == after and status["screen"] == "main", f"status after the restart: {status}")
    r.expect(r.exists("after-watchdog.png"), "no screenshot from the restarted kiosk")
    r.note(f"{freeze.splitlines()[0]}")
    r.note(f"loop stopped -> new process READY: {r.text('hang-to-ready-ms.txt').strip()} ms (WatchdogSec + restart, TCG)")
