"""Churn leaves the service running in the same process; fds and memory are reported."""


def check(r):
    r.expect_rc("install", 0)
    rows = {}
    for line in r.lines("soak.txt"):
        name, *pairs = line.split()
        rows[name] = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in (p.split("=", 1) for p in pairs)}
    r.require("start" in rows and "after-20-display-cycles" in rows, f"soak did not finish:\n{r.text('soak.txt')}")
    pid = int(r.text("pid.txt"))
    for name, row in rows.items():
        r.expect(row["pid"] == pid, f"{name}: main PID {row['pid']}, was {pid}")
        r.note(f"{name}: fds {row['fds']}, VmRSS {row['rss_kib']} KiB, generation {row['generation']}")
    r.expect(r.text("input-cycles-seen.txt").strip() == "50",
             f"the kiosk opened the touchscreen in only {r.text('input-cycles-seen.txt').strip()} of 50 plug-ins")
    r.expect(int(r.text("restarts.txt")) == 0, "the service was restarted during the soak")
    first, last = rows["start"], rows["after-20-display-cycles"]
    r.expect(last["fds"] <= first["fds"], f"open fds grew from {first['fds']} to {last['fds']}")
    journal = r.text("journal-kiosk.txt")
    r.expect("Main process exited" not in journal, "the kiosk exited during the soak")
    r.expect(r.exists("after-soak.png"), "no screenshot after the soak")
    # Memory is reported, not asserted: the config parser's known leak is being replaced.
