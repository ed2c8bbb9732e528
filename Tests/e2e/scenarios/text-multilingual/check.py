"""A menu in a dozen scripts and colour emoji, shown by the unprivileged kiosk on vkms: the scanout
screenshot equals the host's `kiosk render` of the same file with the same binary, exactly; the
kiosk drew with the fallback fonts (Devanagari, Bengali, Tamil, Thai, CJK, colour emoji) from a
warm fontconfig cache and logged nothing about fonts (while a stale cache, the control, makes
fontconfig complain)."""
import hashlib
import json
import os

from e2e import kiosk

SIZE = "1024x768"
# What fontconfig's fallback has to find for the labels (DejaVu Sans, the theme font, has the
# Latin, Greek, Cyrillic, Arabic, Persian and Hebrew itself): a file name part per script.
FALLBACKS = {"Devanagari": "NotoSansDevanagari", "Bengali": "NotoSansBengali", "Tamil": "NotoSansTamil",
             "Thai": "NotoSansThai", "Chinese, Japanese, Korean": "wqy-microhei", "colour emoji": "NotoColorEmoji"}
# The locale decides fontconfig's default language, which takes part in its choices: the host
# renders with none, as the guest's kiosk runs (with these fonts and labels LANG=C.UTF-8, ja_JP,
# zh_TW or ar_EG render the same image today; this keeps it so).
LOCALE_VARS = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "FC_LANG")


def check(r):
    r.expect_rc("check", 0)
    r.expect_rc("kiosk", 0)
    ids = r.text("kiosk-ids.txt")
    r.expect("Uid:\t1000\t" in ids, f"the kiosk did not run as the user kiosk (1000):\n{ids}")
    status = json.loads(r.text("status.json"))
    r.expect(status["screen"] == "main" and status["config_valid"], f"status: {status}")

    messages = r.text("font-messages.txt").strip()
    r.expect(not messages, f"the guest logged about fonts or fontconfig:\n{messages}")
    r.expect(r.text("fontconfig-cache-before.txt") == r.text("fontconfig-cache-after.txt"),
             "/var/cache/fontconfig changed in the guest (its cache was not valid there)")

    mapped = r.lines("kiosk-mapped.txt")
    fonts = sorted(os.path.basename(m) for m in mapped if m.startswith("/usr/share/fonts/"))
    r.note("fonts the kiosk used: " + " ".join(fonts))
    r.expect("DejaVuSans.ttf" in fonts, f"the theme font is not in use: {fonts}")
    for script, part in FALLBACKS.items():
        r.expect(any(part in f for f in fonts), f"no {part} font in use for {script}: {fonts}")
    stale = r.text("render-stale.err")
    r.expect("No writable cache directories" in stale,
             f"control: a stale cache should make fontconfig complain as the kiosk user; it said:\n{stale}")
    caches = [m for m in mapped if m.startswith("/var/cache/fontconfig/")]
    r.expect(caches, "the kiosk maps no fontconfig cache file: fontconfig scanned the fonts itself")

    # The host's reference, rendered by the binary the guest ran (on arm64: by the host's x86_64
    # build, r.host_kiosk, the aarch64 screen must equal).
    binary = r.payload.get("kiosk")
    r.require(binary, "no kiosk binary in the payload")
    digest = hashlib.sha256(binary.read_bytes()).hexdigest()
    r.require(digest == r.text("kiosk.sha256").strip(), f"the guest ran another kiosk than {binary}")
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    r.host(r.host_kiosk, "render", r.path("kiosk.toml"), "--size", SIZE, "--out", r.path("render-host.png"), env=env)

    r.expect_rc("render", 0)
    kiosk.expect_same_image(r, "render-guest.png", "render-host.png")
    kiosk.expect_same_image(r, "screenshot.png", "render-host.png")
