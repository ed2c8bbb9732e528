"""VT switch away and back: the console gets the display, then the kiosk takes it back and redraws."""
from e2e import kiosk


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    r.expect("console switched away from /dev/tty1" in err, "the kiosk did not release the display on a VT switch")
    r.expect("console switched back to /dev/tty1" in err, "the kiosk did not take the display back")
    r.expect("kiosk" in kiosk.framebuffer_owners(r.text("dri-state-kiosk.txt")), "the kiosk was not on screen before the switch")
    away = kiosk.framebuffer_owners(r.text("dri-state-away.txt"))
    r.expect("kiosk" not in away, f"while switched away the screen still showed the kiosk's framebuffer ({away})")
    r.expect_rc("headless", 0)
    kiosk.expect_same_image(r, "screenshot.png", "headless.png")
