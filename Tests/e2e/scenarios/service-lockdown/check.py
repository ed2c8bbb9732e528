"""A locked-down public device: the console's chords from a uinput keyboard leave the same kiosk
on screen and the system up; `kiosk-lockdown remove` restores Debian's defaults, under which one
Ctrl+Alt+Del reboots (the reboot itself is checked by the host's verdict: e2e-ends: reboot)."""
import json
import re


def readings(r, name):
    return dict(l.split("=", 1) for l in r.lines(f"readings-{name}.txt"))


def check(r):
    r.expect_rc("install", 0)
    debian, locked, removed = readings(r, "debian"), readings(r, "locked"), readings(r, "removed")
    r.note(f"Debian's defaults: kernel.sysrq={debian['sysrq']}, CtrlAltDelBurstAction={debian['cad_burst']}, "
           f"ctrl-alt-del.target is {debian['cad_target']}, logind NAutoVTs {debian['nautovts']}")
    r.expect(locked == {"sysrq": "0", "cad_burst": "none", "cad_target": "ctrl-alt-del.target masked", "nautovts": "u 0"},
             f"after scripts/install --lockdown: {locked}")
    r.expect(removed == debian, f"after kiosk-lockdown remove: {removed}, before the lockdown: {debian}")
    r.expect("lockdown is on" in r.text("lockdown-status.txt") and "rc=0" in r.text("lockdown-status.txt"),
             f"kiosk-lockdown status:\n{r.text('lockdown-status.txt')}")
    r.expect("rc=0" in r.text("lockdown-remove.txt"), f"kiosk-lockdown remove:\n{r.text('lockdown-remove.txt')}")
    r.expect("90-kiosk-lockdown" not in r.text("etc-after-remove.txt"), f"left after remove:\n{r.text('etc-after-remove.txt')}")

    pid = int(r.text("pid.txt"))
    pulses = {}
    for line in r.lines("pulse.txt"):
        name, *pairs = line.split()
        pulses[name] = dict(p.split("=", 1) for p in pairs)
    r.require(set(pulses) == {"start", "sysrq-b", "ctrl-alt-del-x7", "ctrl-alt-f2", "after-handover"},
              f"the scenario did not finish:\n{r.text('pulse.txt')}")
    for name, p in pulses.items():
        r.expect(p["pid"] == str(pid), f"{name}: kiosk PID {p['pid']}, was {pid}")
        r.expect(p["system"] in ("running", "starting", "degraded") and p["jobs"] == "0",
                 f"{name}: the system is {p['system']} with {p['jobs']} jobs queued")
        r.expect(p["vt"] == "tty1", f"{name}: the console switched to {p['vt']}")
        # The chords' keys (F2, Delete, B) are bound to "next": the selection must not move.
        r.expect(p["selection"] == "0", f"{name}: the selection moved to {p['selection']}")

    # Under the menu the kernel keeps Ctrl+Alt+Del to itself (K_OFF): PID 1 hears nothing. In the
    # gap of a restart it hears every press, and the lockdown leaves it nothing to start.
    for name, heard in (("menu", 0), ("stopped", 7)):
        ms = int(r.text(f"cad-{name}-ms.txt"))  # the ui commands' round trips included
        journal = r.text(f"journal-cad-{name}.txt")
        refused = len(re.findall(r"ctrl-alt-del\.target.*masked", journal))
        r.expect(refused == heard, f"{name}: systemd refused {refused} Ctrl+Alt+Del (masked target), wanted {heard}; "
                 f"PID 1's journal:\n{journal[-2000:]}")
        r.expect("more than 7 times" not in journal, f"{name}: the burst action fired:\n{journal[-2000:]}")
        # The burst is 7 within 2 s by PID 1's own clock: the SIGINTs it received.
        sigints = [float(t) for t in re.findall(r"^\[\s*([0-9.]+)\].*Received SIGINT", journal, re.M)]
        if heard:
            r.expect(len(sigints) == 7 and sigints[-1] - sigints[0] < 2.0,
                     f"{name}: PID 1 received {len(sigints)} SIGINTs over {sigints[-1] - sigints[0] if sigints else 0:.2f} s, not 7 within 2 s")
        span = f"PID 1 got them within {sigints[-1] - sigints[0]:.2f} s" if sigints else f"sent in {ms} ms"
        r.note(f"Ctrl+Alt+Del x7 with the kiosk {'on screen' if name == 'menu' else 'stopped'} ({span}): "
               f"PID 1 heard {refused}, started nothing")
    r.expect(r.text("kbmode-stopped.txt").strip() not in ("4", ""), f"tty1's keyboard with the kiosk stopped: {r.text('kbmode-stopped.txt')}")
    gap = dict(l.split("=", 1) for l in r.lines("gap.txt"))
    r.expect(gap["vt"] == "tty2" and gap["autovt"].split() == ["inactive", "inactive"],
             f"Ctrl+Alt+F2 with the kiosk stopped: {gap} (the console switches; no getty may start there)")
    r.expect(gap["system"] in ("running", "starting", "degraded") and gap["jobs"] == "0", f"the system in the gap: {gap}")
    r.expect(r.text("kbmode-menu.txt").strip() == "4", f"tty1's keyboard under the menu: {r.text('kbmode-menu.txt')} (K_OFF is 4)")
    r.expect(r.text("kbmode-handover.txt").strip() == "4", f"tty1's keyboard during the exec handover: {r.text('kbmode-handover.txt')}")
    r.expect(r.text("kbmode-after.txt").strip() == "4", f"tty1's keyboard after the handover: {r.text('kbmode-after.txt')}")
    r.expect(r.text("vt-handover.txt").strip() == "tty1", f"Ctrl+Alt+F2 during the handover switched to {r.text('vt-handover.txt')}")
    end = json.loads(r.text("status-end.json"))
    r.expect(end["last_action"] and end["last_action"]["result"] == "exited with status 0", f"the exec item: {end['last_action']}")

    marker = r.serial.index("KIOSK-E2E: AWAITING-SHUTDOWN reboot")
    after = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", r.serial[marker:])
    r.expect("Forcibly" not in after, "the reboot was forced, not systemd's")
