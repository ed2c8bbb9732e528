"""Churn leaves the service running in the same process, with no growth in fds or memory."""


def check(r):
    r.expect_rc("install", 0)
    rows = {}
    for line in r.lines("soak.txt"):
        name, *pairs = line.split()
        rows[name] = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in (p.split("=", 1) for p in pairs)}
    r.require("start" in rows and "after-50-power-cycles" in rows, f"soak did not finish:\n{r.text('soak.txt')}")
    pid = int(r.text("pid.txt"))
    for name, row in rows.items():
        r.expect(row["pid"] == pid, f"{name}: main PID {row['pid']}, was {pid}")
        r.note(f"{name}: fds {row['fds']}, VmRSS {row['rss_kib']} KiB, generation {row['generation']}")
    r.expect(r.text("input-cycles-seen.txt").strip() == "50",
             f"the kiosk opened the touchscreen in only {r.text('input-cycles-seen.txt').strip()} of 50 plug-ins")
    r.expect(int(r.text("restarts.txt")) == 0, "the service was restarted during the soak")
    r.expect(r.text("power-cycles-woken.txt").strip() == "50",
             f"only {r.text('power-cycles-woken.txt').strip()} of 50 keys woke the blanked panel")
    # No transparent huge pages: khugepaged filling a large block's untouched pages into a huge
    # one at a random moment was a step of up to 2 MB that no leak explained (FreedMemory).
    huge = {name: row.get("anon_huge_kib") for name, row in rows.items() if row.get("anon_huge_kib")}
    r.expect(not huge, f"the kiosk holds transparent huge pages (KiB): {huge}")
    first, last = rows["start"], rows["after-50-power-cycles"]
    r.expect(last["fds"] <= first["fds"], f"open fds grew from {first['fds']} to {last['fds']}")
    journal = r.text("journal-kiosk.txt")
    r.expect("Main process exited" not in journal, "the kiosk exited during the soak")
    r.expect(r.exists("after-soak.png"), "no screenshot after the soak")
    # Memory: the first reloads may settle the allocator; after that it must stay put. 200 more
    # reloads leaking even 20 KB each would pass the 4 MB bound, and input and display churn
    # must add nothing measurable.
    settled, reloaded, end = rows["after-100-configs"], rows["after-300-configs"], rows["after-20-display-cycles"]
    r.expect(reloaded["rss_kib"] <= settled["rss_kib"] + 4096,
             f"VmRSS grew {settled['rss_kib']} -> {reloaded['rss_kib']} KiB over reloads 100-300")
    r.expect(end["rss_kib"] <= reloaded["rss_kib"] + 1024,
             f"VmRSS grew {reloaded['rss_kib']} -> {end['rss_kib']} KiB over the input and display cycles")
    # Blank/wake cycles (after one more reload, which may settle the allocator again): flat.
    power = rows["after-50-power-cycles"]
    r.expect(power["rss_kib"] <= end["rss_kib"] + 1024,
             f"VmRSS grew {end['rss_kib']} -> {power['rss_kib']} KiB over 50 blank/wake cycles")
