"""Ansible pushes to a running kiosk (packaging/ansible, from the host over ssh):
- install: the .deb and bundle A; the kiosk runs release A and shows exactly `kiosk render` of A;
  the unit's drop-in (config from current, metrics folder writable) keeps `systemd-analyze
  security` at 2.0 or less;
- icons: bundle B (new title, every icon changed) applied by a symlink swap in the same process,
  one generation later, shown exactly as `kiosk render` of B; every screenshot taken during the
  push is A or B, never B's text with A's icons or the reverse;
- bad: the playbook fails naming both the missing icon and the dangling link;
  current, the process, the generation and the screen are those of B; the refused release is gone;
- again: A pushed again, `kiosk status` names its release; node_exporter serves kiosk_up 1 and
  the status file's generation.
Notes: each playbook's time and push-to-applied (symlink swap -> the kiosk's "config reloaded")."""
import json
import re
from pathlib import Path

from e2e import kiosk


def status(r, name):
    return json.loads(r.text(f"status-{name}.json"))


def pid(r, name):
    return int(r.text(f"pid-{name}.txt").strip())


def render(r, bundle, out):
    """`kiosk render` of a bundle on the host with the binary the guest ran."""
    r.host(r.payload["kiosk"], "render", r.path(f"host/bundles/{bundle}/kiosk.toml"), "--size", "1024x768", "--out", out)
    return r.png(out)


def reload_times(journal):
    """Unix times of the kiosk's "config reloaded (file changed)" lines."""
    return [float(m.group(1)) for m in re.finditer(r"^(\d+\.\d+) \S+ kiosk\[\d+\]: config reloaded \(file changed\)", journal, re.M)]


def check(r):
    for step in ("install", "icons", "bad", "again"):
        r.expect(r.text(f"host-{step}.rc").strip() == "0", f"host step {step} did not go through (see the host step failures)")
    r.require(r.exists("status-install.json"), "no status after the install")

    # install: release A from the package's kiosk, under the role's drop-in.
    a_release = r.text("current-install.txt").strip()
    st_a = status(r, "install")
    r.expect(st_a["config_valid"] and st_a["config_source"] == f"/etc/kiosk/{a_release}/kiosk.toml", f"after the install: {st_a}")
    ref_a = render(r, "a", r.path("render-a.png"))
    kiosk.expect_same_image(r, "a.png", "render-a.png")
    unit = r.text("unit.txt")
    r.expect("ExecStart=/usr/bin/kiosk run --config /etc/kiosk/current/kiosk.toml" in unit, "the drop-in's ExecStart is not in the unit")
    r.expect("ReadWritePaths=-/var/lib/prometheus/node-exporter" in unit, "the drop-in's ReadWritePaths is not in the unit")
    kiosk.expect_exposure(r, "with the role's drop-in")

    # icons: same process, next generation, B on screen.
    b_release = r.text("current-icons.txt").strip()
    st_b = status(r, "icons")
    r.expect(b_release != a_release, "current did not change")
    r.expect(pid(r, "icons") == pid(r, "install") == st_b["pid"], "the kiosk was restarted by the push")
    r.expect(st_b["generation"] == st_a["generation"] + 1, f"generation {st_a['generation']} -> {st_b['generation']}: not one reload")
    r.expect(st_b["config_valid"] and st_b["config_source"] == f"/etc/kiosk/{b_release}/kiosk.toml", f"after bundle B: {st_b}")
    ref_b = render(r, "b", r.path("render-b.png"))
    kiosk.expect_same_image(r, "b.png", "render-b.png")
    r.require(ref_a.diff(ref_b)[0] > 0, "bundles A and B render the same: the test could not tell them apart")

    # Never half-applied: every screenshot during the push is A or B, and the half renders differ from both.
    halves = [render(r, h, r.path(f"render-{h}.png")) for h in ("half-new-text-old-icons", "half-old-text-new-icons")]
    for name, img in zip(("new text, old icons", "old text, new icons"), halves):
        r.require(img.diff(ref_a)[0] > 0 and img.diff(ref_b)[0] > 0, f"{name} renders like A or B: the test could not see it")
    shots = sorted(p.name for p in r.dir.glob("during-*.png"))
    sequence = ""
    for name in shots:
        img = r.png(name)
        if img.diff(ref_a)[0] == 0:
            sequence += "A"
        elif img.diff(ref_b)[0] == 0:
            sequence += "B"
        else:
            half = [n for n, h in zip(("B's text with A's icons", "A's text with B's icons"), halves) if img.diff(h)[0] == 0]
            r.expect(False, f"{name} is neither A nor B" + (f": it is {half[0]}" if half else ""))
            sequence += "?"
    r.expect(re.fullmatch(r"A*B+", sequence), f"screenshots from the swap on: {sequence or 'none'} (want A... then B...)")
    r.note(f"screenshots from the swap on: {sequence}")

    # Bad bundles: refused before the swap, nothing on the device changed.
    bad = "bad"
    st = status(r, bad)
    r.expect(r.text(f"current-{bad}.txt").strip() == b_release, f"{bad}: current is {r.text(f'current-{bad}.txt').strip()}")
    r.expect(pid(r, bad) == pid(r, "icons"), f"{bad}: the kiosk was restarted")
    r.expect((st["generation"], st["config_valid"], st["config_source"]) == (st_b["generation"], True, st_b["config_source"]),
             f"{bad}: status changed: {st}")
    r.expect(r.text(f"releases-{bad}.txt") == r.text("releases-icons.txt"), f"{bad}: the refused release was left on the device")
    kiosk.expect_same_image(r, "after-bad.png", "render-b.png")

    # again: A back, same process.
    st = status(r, "again")
    r.expect(pid(r, "again") == pid(r, "install") and st["generation"] == st_b["generation"] + 1
             and st["config_source"] == f"/etc/kiosk/{a_release}/kiosk.toml", f"A again: {st}")
    r.expect(r.text("restarts-again.txt").strip() == r.text("restarts-install.txt").strip(), "systemd restarted the kiosk")
    r.expect(r.text("kiosk-status.rc").strip() == "0" and f"read from: /etc/kiosk/{a_release}/kiosk.toml" in r.text("kiosk-status.txt"),
             f"kiosk status does not name release A:\n{r.text('kiosk-status.txt')}")

    # node_exporter serves the kiosk's metrics.
    metrics = r.text("node-exporter.txt")
    r.expect(re.search(r"^kiosk_up 1$", metrics, re.M), "node_exporter does not serve kiosk_up 1:\n"
             + "\n".join(l for l in metrics.splitlines() if l.startswith("kiosk_") or "textfile" in l)[:1500])
    m = re.search(r"^kiosk_config_generation (\d+)$", metrics, re.M)
    r.expect(m and int(m.group(1)) == st["generation"], f"kiosk_config_generation {m.group(1) if m else 'missing'}, status says {st['generation']}")
    r.expect(re.search(r"^node_textfile_scrape_error 0$", metrics, re.M), "node_exporter's textfile collector reports an error")

    # Figures.
    journal = r.text("journal-kiosk.txt")
    r.expect("watchdog" not in journal.lower(), "the journal mentions the watchdog")
    reloads = reload_times(journal)
    for step in ("icons", "again"):
        swapped = float(r.text(f"swap-time-{step}.txt").strip())
        after = [t for t in reloads if t >= swapped]
        took = float(r.text(f"host/ansible-{step}.seconds").strip())
        if r.expect(after, f"{step}: no 'config reloaded' after the swap at {swapped}"):
            r.note(f"{step}: playbook {took:.1f} s; swap -> config reloaded {1000 * (after[0] - swapped):.0f} ms")
    for step in ("install", "bad"):
        r.note(f"{step}: playbook {float(r.text(f'host/ansible-{step}.seconds').strip()):.1f} s")
