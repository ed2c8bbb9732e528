"""Config loads off the event loop: a huge icon refused from its header, a 1 MB config loaded
while the knob keeps answering; the same process throughout, never killed by the watchdog."""
import json
import re


def journal_time(journal, text):
    """The monotonic time of the first journal line containing `text`, or None."""
    for line in journal.splitlines():
        if text in line:
            m = re.match(r"\[\s*([0-9.]+)\]", line)
            if m:
                return float(m.group(1))
    return None


def check(r):
    r.expect_rc("install", 0)
    rows = {}
    for line in r.lines("memory.txt"):
        name, *pairs = line.split()
        rows[name] = {k: int(v) for k, v in (p.split("=", 1) for p in pairs)}
    r.require({"start", "after-huge-icon", "after-big"} <= rows.keys(), f"the scenario did not finish:\n{r.text('memory.txt')}")
    pid = int(r.text("pid.txt"))
    for name, row in rows.items():
        r.expect(row["pid"] == pid, f"{name}: main PID {row['pid']}, was {pid}")
        r.note(f"{name}: VmRSS {row['rss_kib']} KiB, generation {row['generation']}")
    r.expect(int(r.text("restarts.txt")) == 0, "the service was restarted")
    # The unit's journal: the kiosk's lines and systemd's about kiosk.service ("Watchdog timeout").
    journal = r.text("journal-kiosk.txt")
    r.expect("watchdog" not in journal.lower(), "the journal mentions the watchdog:\n"
             + "\n".join(l for l in journal.splitlines() if "watchdog" in l.lower())[:2000])
    r.expect("Main process exited" not in journal, "the kiosk exited")

    # (a) Refused from the header: a clear line, the old config kept, memory as it was.
    r.expect("huge.png: 8000x8000 is larger than the 2048x2048 the kiosk decodes; scale it down" in journal,
             "no clear refusal of the 8000x8000 icon in the journal")
    r.expect("config not applied (file changed); keeping the last good one" in journal, "the refusal did not keep the last config")
    huge = json.loads(r.text("status-after-huge.json"))
    r.expect(not huge["config_valid"] and huge["generation"] == rows["start"]["generation"], f"after the huge icon: {huge}")
    grown = rows["after-huge-icon"]["rss_kib"] - rows["start"]["rss_kib"]
    r.expect(grown < 16 * 1024, f"VmRSS grew {grown} KiB over the refused huge icon (256 MB if decoded)")
    r.note(f"huge icon renamed in -> refusal in the status file: {r.text('huge-refused-ms.txt').strip()} ms")

    # (b) The 1 MB config: applied, and the knob answered while it loaded.
    size = int(r.text("big-bytes.txt"))
    r.expect(900_000 <= size <= 1 << 20, f"the big config is {size} bytes")
    big = json.loads(r.text("status-after-big.json"))
    before = int(r.text("generation-before-big.txt"))
    r.expect(big["config_valid"] and big["generation"] == before + 1, f"after the big config: {big}")
    # The second "loading" line is the big config's (the first is the huge icon's).
    starts = [float(m.group(1)) for m in re.finditer(r"\[\s*([0-9.]+)\][^\n]*loading /etc/kiosk/kiosk.toml", journal)]
    applied = journal_time(journal, f"config generation {before + 1} applied")
    r.require(len(starts) >= 2 and applied is not None, f"no loading/applied lines for the big config (loading at {starts}, applied {applied})")
    loading = starts[-1]
    samples = []
    for line in r.lines("knob-samples.txt"):
        t, *pairs = line.split()
        fields = dict(p.split("=", 1) for p in pairs)
        samples.append((float(t), fields["selection"], fields["generation"]))
    moved = [t for (t, sel, gen), (_, prev, _) in zip(samples[1:], samples) if sel != prev and gen == str(before)
             and loading < t < applied]
    r.expect(len(moved) >= 2, f"the selection moved {len(moved)} times while the 1 MB config loaded "
             f"({applied - loading:.2f} s, from {loading:.2f} to {applied:.2f}); samples:\n{r.text('knob-samples.txt')[:3000]}")
    r.note(f"1 MB config: loading {applied - loading:.2f} s by the journal, rename -> new generation seen "
           f"{r.text('big-applied-ms.txt').strip()} ms; the knob moved the selection {len(moved)} times meanwhile")
    r.expect(r.exists("after-big.png"), "no screenshot after the big config")
    # Its three 2048x2048 icons hold 48 MiB decoded; the old config's assets are gone.
    grown = rows["after-big"]["rss_kib"] - rows["start"]["rss_kib"]
    r.expect(grown < 64 * 1024, f"VmRSS grew {grown} KiB with the big config (48 MiB of icons)")

    # `kiosk status` on the device: its exit status and words at each stage.
    def cli(name, rc, health, words):
        r.expect(r.text(f"status-cli-{name}.rc").strip() == str(rc),
                 f"kiosk status {name}: exit {r.text(f'status-cli-{name}.rc').strip()}, wanted {rc}:\n{r.text(f'status-cli-{name}.txt')}")
        text = r.text(f"status-cli-{name}.txt")
        r.expect(all(w in text for w in words), f"kiosk status {name} lacks {words}:\n{text}")
        verdict = json.loads(r.text(f"status-cli-{name}.json"))
        r.expect(verdict["health"] == health and verdict["exit_status"] == rc, f"kiosk status --json {name}: {verdict}")
        return text
    cli("refused", 1, "unhealthy", ["kiosk: unhealthy", "the config is invalid", "huge.png", f"pid: {pid}"])
    cli("applied", 0, "healthy", ["kiosk: healthy", f"generation {before + 1}, valid", "connected"])
    cli("stopped", 3, "no-status", ["kiosk: no status"])
    r.note("kiosk status: " + " / ".join(r.text(f"status-cli-{n}.txt").splitlines()[0] + f" (exit {r.text(f'status-cli-{n}.rc').strip()})"
                                         for n in ("refused", "applied", "stopped")))
