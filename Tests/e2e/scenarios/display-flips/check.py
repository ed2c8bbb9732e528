"""300 flips with none missed or doubled; screenshot from scanout == headless render; the
previous CRTC contents restored and no kiosk framebuffer left behind after exit."""
from e2e import kiosk


def check(r):
    r.expect_rc("kiosk", 0)
    stats = kiosk.frame_stats(r)
    kiosk.expect_flips_accounted(r, stats, 300)
    r.note(f"frame stats: {stats}")
    r.expect_rc("headless", 0)
    kiosk.expect_same_image(r, "screenshot.png", "headless.png")
    during = kiosk.framebuffer_owners(r.text("dri-state-during.txt"))
    r.expect("kiosk" in during, f"while running, the plane's framebuffer was allocated by {during}, not the kiosk")
    before = kiosk.framebuffer_owners(r.text("dri-state-before.txt"))
    after = kiosk.framebuffer_owners(r.text("dri-state-after.txt"))
    r.expect(after == before, f"after exit the planes show framebuffers of {after}, before the kiosk {before}")
    left = kiosk.framebuffer_owners(r.text("dri-framebuffers-after.txt"))
    r.expect("kiosk" not in left, f"framebuffers still allocated by the kiosk after exit: {left}")
