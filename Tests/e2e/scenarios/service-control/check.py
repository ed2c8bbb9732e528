"""The control API on the installed service: root and kiosk-control drive it over the system bus,
anyone else is refused by the bus policy, a locked screen stays locked (its items too, but for
one with api_when_locked = true, and the screen reached only through it), a value only the API sets
shows its placeholder until set and then is on screen exactly as `kiosk render --value` draws it,
a value read from a command is not set from outside, and `kiosk ctl` works. Notes the D-Bus call
to flip latency the kiosk logged."""
import re

from e2e import kiosk


def check(r):
    def said(name):
        return r.text(f"{name}.txt")

    boot = r.json("status-boot.json")
    r.expect(boot.get("control_api") == "ready", f"control API at boot: {boot.get('control_api')} ({boot.get('control_api_problem')})")
    soil = [v for v in boot.get("values", []) if v.get("id") == "soil"]
    r.expect(soil and soil[0].get("state") == "pending" and "only the control API sets it" in (soil[0].get("why") or ""),
             f"soil before any set: {soil}")
    r.expect_rc("render-before", 0)
    kiosk.expect_same_image(r, "before.png", "render-before.png")
    r.expect("is read from command /bin/echo" in said("gardener-set-read")
             and not said("gardener-set-read").rstrip().endswith("exit 0"), f"SetValue of a command's value: {said('gardener-set-read')}")
    for name in ("root-show", "gardener-home", "gardener-set", "gardener-notify"):
        r.expect(said(name).rstrip().endswith("exit 0"), f"{name}: {said(name)}")
    for name in ("passerby-show", "passerby-notify"):
        r.expect("Access denied" in said(name) and not said(name).rstrip().endswith("exit 0"), f"{name} was not refused: {said(name)}")
    r.expect("locked behind a PIN" in said("root-locked") and not said("root-locked").rstrip().endswith("exit 0"),
             f"the locked screen: {said('root-locked')}")
    r.expect("ShowScreen takes (name)" in said("root-bad-type"), f"wrong type: {said('root-bad-type')}")
    for name, words in (("root-locked-toggle", "\"pump\" is behind screen \"service\"'s PIN"),
                        ("gardener-locked-press", "\"flush\" is behind screen \"service\"'s PIN"),
                        ("ctl-locked-press", "\"flush\" is behind screen \"service\"'s PIN"),
                        ("root-behind", "reached only through screen \"service\"")):
        r.expect(words in said(name) and not said(name).rstrip().endswith("exit 0"), f"{name} was not refused: {said(name)}")
    r.expect(said("gardener-locked-set").rstrip().endswith("exit 0"), f"api_when_locked: {said('gardener-locked-set')}")
    files = r.text("marker-files.txt").split()
    r.expect(said("gardener-press").rstrip().endswith("exit 0") and "visit-logged" in files,
             f"Press of an open item: {said('gardener-press')}, files {files}")
    ran = [f for f in ("pump-switched", "flush-ran") if f in files]
    r.expect(not ran, f"refused requests ran anyway: {ran}")
    notified = r.json("status-notified.json")
    r.expect(notified.get("banner") == "Warning: Watering starts in 5 minutes", f"banner: {notified.get('banner')}")
    r.expect(notified.get("locked_screens") == ["service"], f"locked screens: {notified.get('locked_screens')}")
    s = r.json("status-set.json")
    r.expect(s.get("screen") == "main" and s.get("banner") is None, f"after the notification: {s.get('screen')}, {s.get('banner')}")
    r.expect_rc("render-set", 0)
    kiosk.expect_same_image(r, "set.png", "render-set.png")
    r.expect(r.text("ctl-show.txt").strip() == "exit 0", f"kiosk ctl show: {r.text('ctl-show.txt')}")
    r.expect(r.text("ctl-state.err").strip() == "exit 0", f"kiosk ctl state: {r.text('ctl-state.err')}")
    state = r.json("ctl-state.json")
    r.expect(state.get("screen") == "schedule" and state.get("display_on") is True, f"kiosk ctl state: {state}")
    soil = [v for v in state.get("values", []) if v.get("id") == "soil"]
    r.expect(soil and soil[0].get("text") == "63 %", f"soil: {soil}")
    r.expect("permission denied" in r.text("ctl-passerby.txt") and r.text("ctl-passerby.txt").rstrip().endswith("exit 4"),
             f"kiosk ctl as another user: {r.text('ctl-passerby.txt')}")
    r.expect("locked behind a PIN" in r.text("ctl-locked.txt") and r.text("ctl-locked.txt").rstrip().endswith("exit 1"),
             f"kiosk ctl show of the locked screen: {r.text('ctl-locked.txt')}")
    ms = [int(x) for x in r.lines("latency-ms.txt")]
    r.expect(len(ms) == 10, f"latencies: {ms}")
    if ms:
        ms.sort()
        r.note(f"D-Bus ShowScreen -> status shows the screen: median {ms[len(ms) // 2]} ms, max {ms[-1]} ms (busctl start-up included)")
    journal = r.text("journal-kiosk.txt")
    m = re.search(r"input-to-flip latency \(dbus\) over (\d+) inputs: (.*)", journal)
    r.expect(m and int(m.group(1)) >= 20, f"no D-Bus call-to-flip latency over 20 calls or more in the journal: {m and m.group(0)}")
    if m:
        r.note(f"D-Bus call to flip (the kiosk's loop took the call -> its frame flipped): {m.group(1)} calls, {m.group(2)}")
