"""A PIN-locked screen on vkms, by touch and by knob: `kiosk hash-pin` on the device; five wrong
PINs lock the keypad out (counted, logged once, a countdown on screen, the right PIN refused
meanwhile); the right PIN by knob opens the screen; idle relocks it; the right PIN by touch
opens it; leaving locks it; digits show as dots and the PIN reaches neither log nor status.
Then the lockout persists (issue 19): five wrong PINs, SIGKILL, a new kiosk restores the lockout
from its state folder and refuses the right PIN; once it is over five more wrong PINs lock out
for twice as long; killed and started again, that one goes on. The state file is 0600 in a 0700
folder and holds no PIN."""
import json

from e2e import kiosk
import re


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
    # The preview is the device: the keypad and the opened screen as `kiosk render` draws them.
    r.expect_rc("render-keypad", 0)
    kiosk.expect_same_image(r, "keypad-empty.png", "render-keypad.png")
    r.expect_rc("render-admin", 0)
    kiosk.expect_same_image(r, "admin-open.png", "render-admin.png")
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

    # The lockout across restarts.
    r.expect("PIN lockout state: first start" in err, "the first kiosk did not start from an empty state folder")
    modes = r.lines("state-modes.txt") + r.lines("state-modes-end.txt")
    r.expect(len(modes) == 4 and modes[0].startswith("drwx------") and all(m.startswith("-rw-------") for m in modes[1:]),
             "state folder or files readable by others:\n" + "\n".join(modes))
    k2, k3, k4 = r.text("kiosk2.err"), r.text("kiosk3.err"), r.text("kiosk4.err")
    r.expect("keypad locked out for 40 s after 5 wrong PINs" in k2, "kiosk2: no 40 s lockout")
    r.expect(r.text("kiosk2.rc").strip() not in ("0", "timeout"), f"kiosk2 was not killed: {r.text('kiosk2.rc')}")
    locked = r.text("state-locked.txt")
    r.expect("lockouts 1" in locked and "lockout_seconds 40" in locked, f"state after the lockout:\n{locked}")
    m = re.search(r"PIN lockout restored from /results/state/pin-lock.state: (\d+) s left of 40 s", k3)
    r.expect(m is not None and 0 < int(m.group(1)) <= 40, f"kiosk3 did not restore the running lockout: {m and m.group(0)}")
    refused = status(r, "status-restart-refused.json")
    r.expect(refused["screen"] == "keypad: admin" and refused["locked_screens"] == ["admin"] and refused["pin_failures"] == 0,
             f"after the restart the right PIN did something: screen {refused['screen']}, failures {refused['pin_failures']}")
    r.expect("screen admin unlocked" not in k3 + k4, "the right PIN opened the screen during a restored lockout")
    r.expect(r.png("restart-lockout.png").diff(r.png("keypad-empty.png"))[0] > 0, "the restored lockout shows no countdown")
    doubled = status(r, "status-doubled.json")
    r.expect(doubled["pin_failures"] == 5, f"after the restored lockout ended, {doubled['pin_failures']} wrong PINs counted for 5")
    r.expect("keypad locked out for 80 s after 5 wrong PINs" in k3, "the lockout after the restart did not double (80 s)")
    r.expect(k3.count("wrong PIN for screen admin") == 4, f"kiosk3: {k3.count('wrong PIN for screen admin')} wrong-PIN lines for 4")
    r.expect(re.search(r"PIN lockout restored from \S+: \d+ s left of 80 s", k4) is not None, "kiosk4 did not restore the doubled lockout")
    again = status(r, "status-restart-doubled.json")
    r.expect(again["screen"] == "keypad: admin" and again["pin_failures"] == 0, f"kiosk4: screen {again['screen']}, failures {again['pin_failures']}")
    r.expect_rc("kiosk4", 0)
    for name in ("kiosk2.err", "kiosk3.err", "kiosk4.err", "state-locked.txt", "state-doubled.txt"):
        r.expect(pin not in r.text(name), f"the PIN is in {name}")
