"""Rotation 90: the panel shows the logical (portrait) frame turned clockwise, pixel for pixel."""
from e2e import kiosk


def check(r):
    r.expect_rc("kiosk", 0)
    r.expect("768x1024" in r.text("screenshot.png.txt"), "the layout did not see the rotated 768x1024 screen")
    r.expect_rc("headless", 0)
    kiosk.expect_same_image(r, "screenshot.png", "headless.png", rotation=90)
    r.expect_rc("headless-panel", 0)
    kiosk.expect_same_image(r, "screenshot.png", "headless-panel.png")
