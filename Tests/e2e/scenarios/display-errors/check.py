"""No device, unknown connector, unknown mode, no permission: a clear message, exit 1, no crash."""


def expect_clear_failure(r, name, *words):
    r.expect_rc(name, 1)
    err = r.text(f"{name}.err")
    for w in words:
        r.expect(w in err, f"{name}: stderr does not mention {w!r}:\n{err}")
    r.expect("Fatal error" not in err and "Backtrace" not in err, f"{name} crashed:\n{err}")


def check(r):
    expect_clear_failure(r, "no-connector", "HDMI-A-9 does not exist", "Virtual-1")
    expect_clear_failure(r, "no-mode", "123x456 is not offered", "1024x768")
    r.expect(r.rc("bad-mode") not in (0, "timeout"), "a malformed --mode was accepted")
    r.expect("is not WIDTHxHEIGHT" in r.text("bad-mode.err"), "malformed --mode not explained")
    expect_clear_failure(r, "no-permission", "Permission denied", "video")
    expect_clear_failure(r, "no-device", "no DRM display device", "kiosk render")
    expect_clear_failure(r, "no-device-displays", "no DRM display device")
    r.expect_rc("displays", 0)
    listing = r.text("displays.out")
    r.expect("Virtual-1: connected" in listing and "1024x768@60 (preferred)" in listing,
             f"kiosk displays listing:\n{listing}")
