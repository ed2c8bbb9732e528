"""Rotation 90: the tap lands on item 2 as drawn, and the menu settles on it."""


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    r.expect("tap on item 2" in err, f"the tap did not hit item 2:\n{err}")
    r.expect("selected item 2" in err, "the menu did not settle on item 2")
    r.expect("offset=2+0.0" in r.text("screenshot.png.txt"), "the screen does not show item 2 at the apex")
