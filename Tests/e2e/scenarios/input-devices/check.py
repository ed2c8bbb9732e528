"""Touch taps and drags, wheel detents (one by one, in a burst, in partial steps), keys, a
REL_DIAL dial and its button, and a replugged wheel all move the menu by exactly the right
number of items; two fingers landing together move nothing."""
import re


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    for name in ("kiosk-e2e touch ts", "kiosk-e2e wheel wh", "kiosk-e2e keys kb"):
        r.expect(f"input device added: {name}" in err, f"libinput did not report '{name}':\n{err}")
    r.expect(re.search(r"input device added: .*PowerMate.*\(dial, read from evdev\)", err), "the REL_DIAL dial was not picked up")
    r.expect(re.search(r"input device removed: kiosk-e2e wheel wh", err), "the wheel's unplug was not noticed")
    selections = [int(n) for n in re.findall(r"selected item (\d+)", err)]
    drags = [int(n) for n in re.findall(r"moving (-?\d+) items", err)]
    r.require(len(drags) >= 2, f"expected two drag releases, saw {drags}:\n{err}")
    slow, flick = drags[0], drags[1]
    r.expect(slow == 2, f"a slow drag of two rows moved {slow} items")
    r.expect(flick >= 2 + 3, f"a flick of two rows moved only {flick} items: no momentum")
    # The whole path, item by item, modulo the 12 items of the wrapping menu.
    moves = [("start", 0), ("tap item 2", 2), ("slow drag", 2), ("flick", flick), ("3 wheel detents back", -3),
             ("20 quick detents", 20), ("8 quarter detents", 2), ("2 volume-down", -2), ("down key", 1),
             ("dial 5", 5), ("replugged wheel", 1)]
    expected, pos = [], 0
    for name, delta in moves:
        pos = (pos + delta) % 12 if name != "tap item 2" else 2
        expected.append((name, pos))
    got = selections[:len(expected)]
    r.expect(got == [p for _, p in expected],
             "selection path differs:\n" + "\n".join(f"  {n}: expected {p}, got {got[i] if i < len(got) else 'nothing'}"
                                                     for i, (n, p) in enumerate(expected)))
    r.expect(f"activated item {expected[9][1]}" in err, f"the dial's button did not activate item {expected[9][1]}")
    r.expect("tap on item 2" in err, "the tap did not hit item 2")
    # A second finger landing before the first drags cancels the press (a palm, two people):
    # the two-finger drag moves nothing and releases nothing.
    r.expect(len(drags) == 2, f"the two-finger drag moved the menu: {drags}")
    r.expect(err.count("activated item") == 1, "something besides the dial's button activated an item")
