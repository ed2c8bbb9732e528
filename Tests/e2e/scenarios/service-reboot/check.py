"""The menu's "Restart" item with the polkit rule: a reboot through logind (the shutdown itself
is checked by the host's verdict: e2e-ends: reboot)."""
import json
import re


def check(r):
    r.expect_rc("install", 0)
    r.expect("50-kiosk.rules" in r.text("rule-installed.txt"), f"no polkit rule: {r.text('rule-installed.txt')}")
    pid = int(r.text("pid-boot.txt"))
    before = json.loads(r.text("status-before-reboot.json"))
    r.expect(before["selected_label"] == "Restart" and before["pid"] == pid, f"before Enter: {before}")
    after = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", r.serial[r.serial.index("KIOSK-E2E: AWAITING-SHUTDOWN reboot"):])
    r.expect(re.search(rf"kiosk\[{pid}\]: asked systemd to reboot \(systemctl pid \d+\)", after),
             "the journal on the console lacks the kiosk's 'asked systemd to reboot' after Enter")
    r.expect(re.search(r"systemd-logind\[\d+\]: System is rebooting", after),
             "the journal on the console lacks logind's 'System is rebooting'")
    ended = re.search(r'kiosk\[\d+\]: "reboot" \(pid \d+\) (.*)', after)
    r.expect(not ended or ended.group(1).strip() == "exited with status 0", f"the kiosk's systemctl reboot {ended.group(1) if ended else ''}")
    r.expect("Forcibly" not in after, "something forced the reboot instead of the shutdown")
