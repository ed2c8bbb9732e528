"""Unplug and replug: noticed once each, no restart, the menu back on screen exactly."""
from e2e import kiosk


def check(r):
    r.expect_rc("kiosk", 0)
    r.expect(r.exists("alive-after-replug.txt"), "the kiosk was not running after the display came back")
    err = r.text("kiosk.err")
    r.expect(err.count("Virtual-1 disconnected") == 1, f"disconnect not logged exactly once:\n{err}")
    r.expect(err.count("Virtual-1 connected") == 1, f"reconnect not logged exactly once:\n{err}")
    r.expect_rc("headless", 0)
    kiosk.expect_same_image(r, "screenshot.png", "headless.png")
