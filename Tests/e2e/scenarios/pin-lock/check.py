"""A PIN-locked screen on vkms, by touch and by knob: `kiosk hash-pin` on the device; five wrong
PINs lock the keypad out (counted, logged once, a countdown on screen, the right PIN refused
meanwhile); the right PIN by knob opens the screen; idle relocks it; the right PIN by touch
opens it; leaving locks it; digits show as dots and the PIN reaches neither log nor status."""
import json


def status(r, name):
    return json.loads(r.text(name))


def check(r):
    r.expect_rc("kiosk", 0)
    pin = "739146"
    r.expect(r.text("hash-pin.rc").strip() == "0", f"kiosk hash-pin failed: {r.text('hash-pin.err')}")
    h = r.text("hash.txt").strip()
    r.expect(h.startswith("$y$") and pin not in h, f"kiosk hash-pin printed {h!r}, not a yescrypt hash")
    err = r.text("kiosk.err")

    start = status(r, "status-start.json")
    r.expect(start["locked_screens"] == ["admin"] and start["pin_failures"] == 0,
             f"at start: locked {start['locked_screens']}, failures {start['pin_failures']}")

    # The keypad with three digits differs from the empty one only in its title (the dots): the
    # key tapped last is not left highlighted, no digit is drawn.
    empty, three = r.png("keypad-empty.png"), r.png("keypad-three-digits.png")
    rows = [y for y in range(empty.height) if any(empty.pixel(x, y) != three.pixel(x, y) for x in range(empty.width))]
    r.expect(rows, "entering digits changed nothing on screen")
    if rows:
        # The header (title and back button) is 0.06 x 1.6 of the screen's height.
        header = 0.096 * empty.height
        r.expect(max(rows) < header, f"entering digits changed the keypad below its title (rows {min(rows)}-{max(rows)}, header {header:.0f})")
    lock = r.png("lockout.png")
    r.expect(lock.diff(empty)[0] > 0, "the lockout looks like the empty keypad (no countdown)")

    during = status(r, "status-during-lockout.json")
    r.expect(during["screen"] == "keypad: admin" and during["pin_failures"] == 5,
             f"during the lockout the right PIN did something: screen {during['screen']}, failures {during['pin_failures']}")
    r.expect(err.count("keypad locked out for 20 s after 5 wrong PINs") == 1,
             f"{err.count('keypad locked out')} lockout lines for one lockout")
    # Four wrong PINs are logged as such, the fifth as the lockout.
    r.expect(err.count("wrong PIN for screen admin") == 4, f"{err.count('wrong PIN for screen admin')} wrong-PIN lines for 4")

    knob = status(r, "status-unlocked-by-knob.json")
    r.expect(knob["screen"] == "admin" and knob["locked_screens"] == [],
             f"by knob: screen {knob['screen']}, locked {knob['locked_screens']}")
    relocked = status(r, "status-relocked.json")
    r.expect(relocked["screen"] == "main" and relocked["locked_screens"] == ["admin"],
             f"after idle: screen {relocked['screen']}, locked {relocked['locked_screens']}")
    touch = status(r, "status-unlocked-by-touch.json")
    r.expect(touch["screen"] == "admin", f"by touch: screen {touch['screen']}")
    left = status(r, "status-left.json")
    r.expect(left["screen"] == "main" and left["locked_screens"] == ["admin"] and left["pin_failures"] == 5,
             f"after leaving: screen {left['screen']}, locked {left['locked_screens']}, failures {left['pin_failures']}")
    r.expect(err.count("screen admin unlocked") == 2, f"{err.count('screen admin unlocked')} unlock lines for 2")
    r.expect("screen admin locked again: left" in err, "leaving did not lock the screen")

    for name in ("kiosk.err", "kiosk.out", "status-left.json", "status-unlocked-by-touch.json"):
        r.expect(pin not in r.text(name), f"the PIN is in {name}")
