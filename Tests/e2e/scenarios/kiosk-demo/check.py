"""kiosk demo ran on vkms, wrote an on-screen screenshot on SIGUSR1 and exited 0 on SIGTERM."""


def check(r):
    r.expect_rc("kiosk", 0)
    img = r.png("screenshot.png")
    r.expect((img.width, img.height) == (1024, 768), f"screenshot is {img.width}x{img.height}, vkms mode is 1024x768")
    r.expect(len(img.colors()) > 1, "screenshot is a single flat colour")
