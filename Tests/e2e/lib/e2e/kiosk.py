"""Checks shared by the kiosk's scenarios: its frame statistics, screenshots against headless
renders, and who owns the framebuffers the kernel lists."""
import re


def frame_stats(r, name="kiosk"):
    """The `frame stats` line of NAME.err (the runtime's, at exit) as a dict of ints (vblank_gaps kept as text)."""
    m = re.search(r"frame stats (.*)", r.text(f"{name}.err"))
    r.require(m, f"{name}.err has no 'frame stats' line (did the kiosk exit cleanly?)")
    stats = dict(kv.split("=", 1) for kv in m.group(1).split())
    return {k: (int(v) if v.isdigit() else v) for k, v in stats.items()}


def expect_flips_accounted(r, stats, at_least):
    """Every frame presented was shown exactly once: by one flip event (none missed, none doubled)
    or, the first frame and the first after regaining the display, by a mode set."""
    mode_sets = stats.get("mode_sets", 0)
    r.expect(stats["flips"] + mode_sets >= at_least,
             f"only {stats['flips']} flips completed and {mode_sets} frames shown by a mode set, wanted {at_least}")
    r.expect(stats["presented"] == stats["flips"] + mode_sets + stats["pending"],
             f"presented {stats['presented']} frames but {stats['flips']} flips completed, {mode_sets} frames shown by "
             f"a mode set (+{stats['pending']} pending)")
    r.expect("unexpected flip event" not in r.text("kiosk.err"), "a flip event arrived that no frame asked for")


def expect_same_image(r, screenshot, reference, rotation=0):
    """The on-screen screenshot equals the headless render turned by the display rotation, exactly."""
    shot = r.png(screenshot)
    ref = r.png(reference).rotated(rotation) if rotation else r.png(reference)
    r.require((shot.width, shot.height) == (ref.width, ref.height),
              f"{screenshot} is {shot.width}x{shot.height}, {reference} turned by {rotation} is {ref.width}x{ref.height}")
    count, worst = shot.diff(ref)
    if count:
        ref.save(r.path(f"{reference}.expected-on-screen.png"))
    r.expect(count == 0, f"{screenshot} differs from {reference} (rotated {rotation}) in {count} pixels, max delta {worst}")


def framebuffer_owners(text):
    """Process names from `allocated by = [name]` lines of debugfs dri state/framebuffer files."""
    return re.findall(r"allocated by = \[?([^\]\n]+)\]?", text)


def expect_exposure(r, what, name="security.txt", limit=2.0):
    """`systemd-analyze security kiosk.service`'s overall exposure in NAME: noted, at most LIMIT."""
    sec = r.text(name)
    m = re.search(r"Overall exposure level for kiosk.service: ([0-9.]+)", sec)
    r.expect(m, f"no systemd-analyze security score:\n{sec[-2000:]}")
    if m:
        r.note(f"systemd-analyze security kiosk.service {what}: {m.group(1)}")
        r.expect(float(m.group(1)) <= limit, f"exposure {m.group(1)} above {limit} {what}")
