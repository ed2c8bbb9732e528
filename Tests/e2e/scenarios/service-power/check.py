"""The menu's power items on the installed service: refused without the polkit rule (system up,
same kiosk, the refusal in the status file and on screen), a clean poweroff through logind
with it (the shutdown itself is checked by the host's verdict: e2e-ends: poweroff)."""
import json
import re

ACTIONS = ["power-off", "power-off-multiple-sessions", "reboot", "reboot-multiple-sessions"]
BANNER_ROWS = 60  # the banner bar: 2.2 x 3.5 % of 768 lines = 59 rows at the bottom


def status(r, name):
    try:
        return json.loads(r.text(name))
    except json.JSONDecodeError as e:
        r.fail(f"{name} is not JSON ({e}):\n{r.text(name)}")


def authz(r, name):
    got = dict(l.split() for l in r.lines(name))
    r.require(sorted(got) == sorted(ACTIONS), f"{name}: {got}")
    return {a: int(v) for a, v in got.items()}


def expect_refused(r, verb, name, evidence):
    st = status(r, name)
    last = st["last_action"] or {}
    result = last.get("result", "")
    r.expect(last.get("action") == verb and re.fullmatch(r"exited with status [1-9]\d*", result),
             f"{verb} without the rule: last action {last} (wanted a non-zero exit of systemctl); "
             f"the kiosk's service then:\n{r.text(evidence)}")
    r.expect(st["banner"] == f"{verb}: {result}", f"{verb} without the rule: banner {st['banner']!r}")
    return st


def banner_pixels(r, shot_name, before_name):
    """Pixels that changed inside the banner bar and above it."""
    shot, before = r.png(shot_name), r.png(before_name)
    r.require((shot.width, shot.height) == (before.width, before.height), f"{shot_name}: size changed")
    inside = outside = 0
    for y in range(shot.height):
        for x in range(shot.width):
            if shot.pixel(x, y) != before.pixel(x, y):
                if y >= shot.height - BANNER_ROWS:
                    inside += 1
                else:
                    outside += 1
    return inside, outside, shot.width * BANNER_ROWS


def check(r):
    r.note(f"guest: {r.text('polkitd.txt').strip()}")
    r.expect_rc("install", 0)
    r.expect("same-as-packaging" in r.text("rule-installed.txt"), f"scripts/install did not put the rule:\n{r.text('rule-installed.txt')}")
    boot = status(r, "status-boot.json")
    pid = int(r.text("pid-boot.txt"))
    r.require(boot["pid"] == pid and boot["screen"] == "main", f"status at boot: {boot} (main PID {pid})")

    # Without the rule: every action refused for the kiosk's process...
    without = authz(r, "authz-without-rule.txt")
    r.expect(all(v != 0 for v in without.values()), f"polkit allows the kiosk without the rule: {without}")
    # ... and the menu's requests refused, reported, with the system and the kiosk still up.
    off = expect_refused(r, "poweroff", "status-refused-poweroff.json", "refused-poweroff-kiosk-status.txt")
    expect_refused(r, "reboot", "status-refused-reboot.json", "refused-kiosk-status.txt")
    r.note(f"refused poweroff: Enter -> result in the status file {r.text('refused-poweroff-ms.txt').strip()} ms: "
           f"{off['last_action']['result']!r}, banner {off['banner']!r}")
    up = dict(l.split("=", 1) for l in r.lines("still-up.txt"))
    # The scenario's own unit is a start job until it ends ("starting"); anything else queued
    # (poweroff.target, reboot.target, the units they stop) means a shutdown is under way.
    jobs = [j for j in up["jobs"].split(";") if j.strip() and "kiosk-e2e.service" not in j]
    r.expect(up["system"] in ("starting", "running", "degraded") and not jobs,
             f"after the refused requests the system is {up['system']!r} with jobs {jobs}")
    r.expect(up["active"] == "active" and int(up["pid"]) == pid, f"the kiosk after the refusals: {up} (boot PID {pid})")
    r.expect(status(r, "status-refused-reboot.json")["pid"] == pid, "the status file is from another kiosk process")
    for shot in ("refused-poweroff.png", "refused-reboot.png"):
        inside, outside, bar = banner_pixels(r, shot, "boot.png")
        r.expect(inside > bar // 2, f"{shot}: only {inside} of {bar} pixels of the banner bar changed")
        r.expect(outside < 1024 * 768 // 20, f"{shot}: {outside} pixels changed above the banner bar")
    journal = r.text("refused-journal.txt")
    # systemctl must not start a polkit agent on the kiosk's tty1 (nobody can answer it there).
    agents = [l for l in journal.splitlines() if "Registered Authentication Agent" in l]
    r.expect(not agents, f"systemctl started a polkit agent: {agents[0] if agents else ''}")
    # Nor report to the kiosk's notify socket, which systemd keeps for the main process.
    strays = [l for l in journal.splitlines() if "reception only permitted for main PID" in l]
    r.expect(not strays, f"a child of the kiosk sent to its notify socket: {strays[0] if strays else ''}")
    refusals = [l for l in journal.splitlines() if re.search(r"systemctl\[\d+\]: Call to \w+ failed", l)]
    words = sorted({l.split(": ", 1)[-1].strip() for l in refusals})
    r.note(f"systemctl's words in the journal: {' / '.join(words) or '(none)'}")

    # With the rule: allowed, then the real thing.
    allowed = authz(r, "authz-with-rule.txt")
    r.expect(all(v == 0 for v in allowed.values()), f"polkit refuses the kiosk with the rule: {allowed}")
    r.expect(int(r.text("pid-before-poweroff.txt")) == pid, "the kiosk was restarted before the poweroff")
    before = status(r, "status-before-poweroff.json")
    r.expect(before["selected_label"] == "Power off", f"'Power off' not selected before Enter: {before}")
    marker = r.serial.index("KIOSK-E2E: AWAITING-SHUTDOWN poweroff")  # there: the host's verdict checked it
    after = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", r.serial[marker:])
    asked = re.search(rf"kiosk\[{pid}\]: asked systemd to poweroff \(systemctl pid (\d+)\)", after)
    r.expect(asked, "the journal on the console lacks the kiosk's 'asked systemd to poweroff' after Enter")
    down = re.search(r"systemd-logind\[\d+\]: System is powering down", after)
    r.expect(down, "the journal on the console lacks logind's 'System is powering down'")
    ended = re.search(r'kiosk\[\d+\]: "poweroff" \(pid \d+\) (.*)', after)
    r.expect(not ended or ended.group(1).strip() == "exited with status 0",
             f"the kiosk's systemctl poweroff {ended.group(1) if ended else ''}")
    r.expect("Forcibly" not in after, "something forced the power-off instead of the shutdown")
    times = [float(m) for m in re.findall(r"^\[\s*(\d+\.\d+)\]", after, re.M)]
    if asked and times:
        r.note(f"poweroff: {after.count('Stopped ')} units stopped; kernel power-down at {times[-1]:.1f}s of uptime")
