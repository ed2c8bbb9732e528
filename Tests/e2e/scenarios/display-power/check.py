"""[power] on vkms: off after idle (DPMS Off and the CRTC inactive, read through libdrm; no frame
flipped while off); a tap on an item, a wheel detent, a key and a dial step wake the panel and do
nothing else, and the first frame after waking is the menu; the control tap opens the item;
100 blank/wake cycles in one process without growth in fds or memory; one log line per wake.
Then, in a second kiosk, after an exec item's program has run (libinput's removal of the devices
handed over reaches the kiosk with the next input): a tap on that item, a wheel detent and Enter
on the blanked panel, each the first input after a run of its own, only wake it: the program does
not run again, the selection and screen stay, the screen is the one before, the wake is said to
come from the device used."""
import json
import re


def drm(r, name):
    """{'dpms': ..., 'active': ...} of the first connected connector and its CRTC, from kiosk-drmstate."""
    text = r.text(name)
    con = re.search(r"connector (\S+) status=connected dpms=(\S+) crtc=(-?\d+)", text)
    r.require(con, f"{name}: no connected connector:\n{text}")
    crtcs = dict(re.findall(r"crtc (\d+) active=(-?\d+)", text))
    return {"dpms": con.group(2), "crtc": con.group(3), "active": crtcs}


def status(r, name):
    return json.loads(r.text(name))


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    lit, off, later = drm(r, "drm-lit.txt"), drm(r, "drm-off.txt"), drm(r, "drm-off-later.txt")
    r.expect(lit["dpms"] == "On", f"at start the connector's DPMS is {lit['dpms']}")
    r.expect(off["dpms"] == "Off", f"after idle the connector's DPMS is {off['dpms']}, not Off")
    r.expect("1" not in off["active"].values(), f"after idle a CRTC is still active: {off['active']}")
    r.expect(later["dpms"] == "Off", "the panel came back on by itself")
    f0, f1 = r.text("frames-off-start.txt").strip(), r.text("frames-off-end.txt").strip()
    r.expect(f0 != "" and f0 == f1, f"frames were flipped while the panel was off: {f0} -> {f1}")
    r.note(f"frames while off: {f0} -> {f1}")
    r.expect(status(r, "status-dimmed.json")["display_power"] == "dimmed", "the status never said dimmed")

    touch = drm(r, "drm-woken-by-touch.txt")
    r.expect(touch["dpms"] == "On" and "1" in touch["active"].values(), f"after the tap: {touch}")
    st = status(r, "status-after-touch.json")
    r.expect(st["screen"] == "main" and st["last_action"] is None,
             f"the waking tap did something: screen {st['screen']}, last action {st['last_action']}")
    # The first frame after waking is the menu as it was, not black.
    shot, ref = r.png("woken-by-touch.png"), r.png("lit.png")
    count, worst = shot.diff(ref)
    r.expect(count == 0, f"the screen after waking differs from the menu before in {count} pixels (max delta {worst})")

    for name, what in (("status-after-wheel.json", "wheel detent"), ("status-after-key.json", "Down key"),
                       ("status-after-dial.json", "dial step")):
        st = status(r, name)
        r.expect(st["selection"] == 0 and st["screen"] == "main" and st["last_action"] is None,
                 f"the waking {what} moved or did something: selection {st['selection']}, screen {st['screen']}, "
                 f"last action {st['last_action']}")
    r.expect(drm(r, "drm-woken-by-wheel.txt")["dpms"] == "On", "the wheel did not turn DPMS on")
    ctl = status(r, "status-after-control-tap.json")
    r.expect(ctl["screen"] == "next" and ctl["last_action"] and ctl["last_action"]["item"] == "Open",
             f"the control tap (panel on) did not open the item: {ctl['screen']}, {ctl['last_action']}")

    woken = r.text("cycles-woken.txt").strip()
    r.expect(woken == "100", f"only {woken} of 100 cycles woke the panel")
    r.expect(r.exists("alive-after-cycles.txt"), "the kiosk died during the cycles")
    rows = {}
    for line in r.lines("cycles.txt"):
        name, *pairs = line.split()
        rows[name] = {k: int(v) for k, v in (p.split("=", 1) for p in pairs)}
    r.require(all(k in rows for k in ("before-cycles", "after-10-cycles", "after-100-cycles")),
              f"cycles not recorded:\n{r.text('cycles.txt')}")
    a, w, b = rows["before-cycles"], rows["after-10-cycles"], rows["after-100-cycles"]
    r.note(f"100 cycles: fds {a['fds']} -> {w['fds']} (10) -> {b['fds']}, "
           f"VmRSS {a['rss_kib']} -> {w['rss_kib']} (10) -> {b['rss_kib']} KiB")
    r.expect(b["fds"] <= a["fds"], f"open fds grew from {a['fds']} to {b['fds']} over 100 cycles")
    # The first wakes after the reload draw its screen for the first time; after that, flat.
    r.expect(b["rss_kib"] <= w["rss_kib"] + 1024, f"VmRSS grew {w['rss_kib']} -> {b['rss_kib']} KiB over cycles 10-100")
    prom = r.text("metrics-after-cycles.prom")
    r.expect('kiosk_display_power_state{state="off"} 1' in prom, "the metrics do not say the panel is off")
    r.expect("kiosk_display_wakes_total 105" in prom,
             f"kiosk_display_wakes_total is not 105: {re.findall(r'kiosk_display_wakes_total .*', prom)}")
    after = status(r, "status-after-cycles.json")
    r.expect(after["pid"] == int(re.search(r"\d+", r.text("kiosk.pid")).group()), "another process wrote the status")

    # One log line per wake (4, the key before the control tap, 100), none per swallowed event.
    wakes = re.findall(r"display woken by (\w+)", err)
    r.expect(len(wakes) == 105, f"{len(wakes)} 'display woken' lines for 105 wakes")
    r.expect(err.count("activated item") == 1, f"items activated {err.count('activated item')} times; only the control tap should")
    lat = re.search(r"wake-to-flip latency .* over (.*)", err)
    r.expect(lat, "no wake-to-flip latency summary at exit")
    if lat:
        r.note(f"wake-to-flip: {lat.group(1)}")
    exit_state = drm(r, "drm-after-exit.txt")
    r.expect(exit_state["dpms"] == "On", f"after exit the connector's DPMS is {exit_state['dpms']}")

    check_after_exec(r)


def check_after_exec(r):
    """The second kiosk: runs 1 (a tap with the panel on, the control), 2 and 3 (Enter) of "Count",
    each followed by a blank and one input that must only wake the panel."""
    r.expect_rc("kiosk2", 0)
    err = r.text("kiosk2.err")
    rounds = {}
    for line in r.lines("exec-rounds.txt") if r.exists("exec-rounds.txt") else []:
        name, *pairs = line.split()
        rounds[name] = dict(p.split("=", 1) for p in pairs)
    r.require(set(rounds) == {"tap", "detent", "enter"},
              f"the rounds after an exec did not all run: {sorted(rounds)}\n" + err[-3000:])
    lit, lit_offset = r.png("exec-lit.png"), r.text("exec-lit.txt").splitlines()[0]
    for n, (name, what, device) in enumerate((("tap", "a tap on \"Count\"", "touch"),
                                              ("detent", "a wheel detent", "wheel"),
                                              ("enter", "Enter", "key")), start=1):
        row = rounds[name]
        if int(row["runs"]) < n:
            r.expect(False, f"run {n} of the exec item never came before {what} (Enter with the panel on found "
                            f"another item selected?): {row['runs']} runs, {row['started']} started")
        else:
            r.expect(row["runs"] == str(n) and row["started"] == str(n),
                     f"{what} on the blanked panel after run {n} of the exec item ran it again: "
                     f"{row['runs']} runs, {row['started']} started")
        r.expect(row["woken_by"] == device,
                 f"after run {n}, {what} on the blanked panel: the last wake was by {row['woken_by']!r}, not {device}")
        r.expect(row["wakes"] == "1", f"{what} on the blanked panel after run {n}: {row['wakes']} wakes, not 1")
        st = json.loads(r.text(f"exec-status-after-{name}.json"))
        r.expect(st["display_power"] == "on" and st["screen"] == "main" and st["selection"] == 0,
                 f"{what} on the blanked panel after an exec did more than wake it: display {st['display_power']}, "
                 f"screen {st['screen']}, selection {st['selection']}")
        if r.exists(f"exec-woken-by-{name}.png"):
            count, worst = r.png(f"exec-woken-by-{name}.png").diff(lit)
            r.expect(count == 0, f"after {what} woke the panel the screen differs from the one before in {count} "
                                 f"pixels (max delta {worst})")
            offset = r.text(f"exec-woken-by-{name}.txt").splitlines()[0]
            r.expect(offset == lit_offset, f"after {what} woke the panel the menu is at {offset}, was {lit_offset}")
        else:
            r.expect(False, f"no screenshot after {what} woke the panel")
    runs = r.text("exec-runs.txt").split() if r.exists("exec-runs.txt") else []
    r.expect(len(runs) == 3, f"the exec item ran {len(runs)} times; 3 (a tap and two Enters, the panel on) expected")
    r.expect(err.count("activated item") == 3, f"items activated {err.count('activated item')} times, not 3")
