"""Boot to the example menu; live reload by rename (same PID, within a second, screen equals a
headless render); invalid config keeps the menu with a banner; a finger held through a config
rename drags the new menu and its release settles it on the item two up, at rest; exec hands the
display over and takes it back."""
import json
import re
from pathlib import Path

from e2e import kiosk

SCENARIO = Path(__file__).resolve().parent


def status(r, name):
    try:
        return json.loads(r.text(name))
    except json.JSONDecodeError as e:
        r.fail(f"{name} is not JSON ({e}):\n{r.text(name)}")


def check(r):
    r.expect_rc("check", 0)
    r.expect_rc("kiosk", 0)
    boot = status(r, "status-boot.json")
    r.expect(boot["screen"] == "main" and boot["config_valid"] and boot["generation"] == 1, f"boot status: {boot}")
    r.expect_rc("render-boot", 0)
    kiosk.expect_same_image(r, "boot.png", "render-boot.png")
    if r.arch != "amd64":
        # The aarch64 kiosk's screen against the x86_64 build's render of the same config, on the host.
        r.host(r.host_kiosk, "render", SCENARIO / "example/kiosk.toml", "--size", "1024x768",
               "--out", r.path("render-boot-x86_64.png"))
        kiosk.expect_same_image(r, "boot.png", "render-boot-x86_64.png")

    cs = int(r.text("reload-centiseconds.txt").strip())
    # How long is a figure (BENCHMARKS.md, "Reload"), not a test: under TCG it follows the host's
    # speed and load (880-1450 ms on the same code). That it applied within the 10 s guest.sh
    # waits for it is the test.
    r.note(f"config replacement applied {cs * 10} ms after the rename")
    r.expect(cs < 1000, f"the replaced config was not applied within 10 s of the rename ({cs * 10} ms)")
    reloaded = status(r, "status-reloaded.json")
    r.expect(reloaded["generation"] == 2 and reloaded["pid"] == boot["pid"], f"after reload: {reloaded}")
    r.expect_rc("render-reloaded", 0)
    kiosk.expect_same_image(r, "reloaded.png", "render-reloaded.png")

    invalid = status(r, "status-invalid.json")
    r.expect(not invalid["config_valid"] and invalid["generation"] == 2, f"after an invalid file: {invalid}")
    r.expect(invalid["banner"] and "not applied" in invalid["banner"], f"no banner: {invalid}")
    r.expect(invalid["config_errors"] and "kiosk.toml:" in invalid["config_errors"][0], f"errors: {invalid['config_errors']}")
    shot, before = r.png("invalid.png"), r.png("reloaded.png")
    count, _ = shot.diff(before)
    r.expect(0 < count < shot.width * shot.height // 5, f"the invalid config changed {count} pixels: expected only a banner")
    r.expect(r.exists("same-pid.txt"), "the kiosk did not survive the invalid config")

    err = r.text("kiosk.err")
    # The finger held through the rename to generation 4 (down before it, 0.6 of an item dragged;
    # 1.4 more and the release after it): the new menu took the hold.
    drag = status(r, "status-drag.json")
    r.expect(drag["generation"] == 4 and drag["config_valid"] and drag["selection"] == 2,
             f"after the drag held through the rename: generation {drag['generation']}, selection {drag['selection']} "
             f"({drag.get('selected_label')}), not generation 4 and item 2 (\"Three\")")
    _, applied, after = err.partition("config generation 4 applied")
    r.expect(applied, "the renamed title (generation 4) was never applied")
    if applied:
        r.expect("drag released" in after, "no \"drag released\" after \"config generation 4 applied\": the release was lost")
        r.expect("selected item 2" in after, "no \"selected item 2\" after \"config generation 4 applied\"")
    r.expect(r.exists("drag-shot.txt"), "no screenshot after the drag")
    if r.exists("drag-shot.txt"):
        m = re.search(r"offset=(-?\d+)\+([-0-9.e]+)", r.text("drag-shot.txt"))
        r.expect(m and int(m.group(1)) == 2 and float(m.group(2)) == 0,
                 f"the menu after the release is not at rest on item 2: {r.text('drag-shot.txt').strip()!r}")
    # Its first frame is shown by a mode set, the other 59 by flips.
    shown = [int(f) + int(m) for f, m in re.findall(r"flips=(\d+) mode_sets=(\d+)", err)]
    r.expect(60 in shown, f"the exec'd program did not show its 60 frames on the display (flips + mode sets: {shown})")
    after = status(r, "status-after-exec.json")
    r.expect(after["last_action"] and after["last_action"]["result"] == "exited with status 0", f"after exec: {after}")
    r.expect_rc("render-after-exec", 0)
    kiosk.expect_same_image(r, "menu-after-exec.png", "render-after-exec.png")
    failed = status(r, "status-failed-exec.json")
    r.expect("failed to start" in (failed["last_action"] or {}).get("result", ""), f"a program that cannot start: {failed}")
    r.expect(failed["banner"] and "Fail to start" in failed["banner"], f"no banner for the failed start: {failed}")
