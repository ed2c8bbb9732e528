"""systemd guest: PID 1, modules loaded by systemd-modules-load, udev, a transient service, a warm
fontconfig cache."""


def check(r):
    r.expect(r.text("pid1.txt").strip() == "systemd", f"PID 1 is {r.text('pid1.txt').strip()!r}")
    r.expect(r.lines("units-active.txt") == ["active"] * 3, f"core units not active:\n{r.text('units-active.txt')}")
    mods = {l.split()[0] for l in r.lines("lsmod.txt")[1:]}
    for m in ("vkms", "drm", "evdev", "uinput"):
        r.expect(m in mods, f"module {m} not loaded by systemd-modules-load")
    r.expect(r.text("card0-device.txt").strip() == "vkms", "card0 is not vkms")
    r.expect("Virtual-1 connected" in r.text("connectors.txt"), "vkms connector not connected")
    r.expect("TAGS=" in r.text("udev-card0.txt") and "seat" in r.text("udev-card0.txt"), "card0 not tagged for the seat by udev")
    r.expect_rc("systemd-run", 0)
    r.expect("probe-ran-as-root" in r.text("probe-journal.txt"), "the transient service's output is not in the journal")
    r.expect("ID_INPUT_TOUCHSCREEN=1" in r.text("udev-touch.txt"), "udev did not tag the uinput touchscreen")
    r.expect_rc("uinput", 0)
    failed = r.text("systemd-failed.txt")
    r.expect("0 loaded units listed" in failed, f"failed units:\n{failed}")
    r.expect_rc("fc-list", 0)
    r.expect(not r.text("fc-list.err").strip(), f"fontconfig complained as an unprivileged user:\n{r.text('fc-list.err')}")
    fonts = r.lines("fc-list.out")
    r.expect(any("NotoSansDevanagari" in f for f in fonts) and any("wqy-microhei" in f for f in fonts)
             and any("NotoColorEmoji" in f for f in fonts), f"the device's fonts are not all listed ({len(fonts)} fonts)")
