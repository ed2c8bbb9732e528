"""Live values: a file's and a command's values on screen equal `kiosk render --value` before and
after their sources change; a hanging command killed and shown stale with its reason; a toggle
switched on by a tap and off by the knob, through its commands."""
import json

from e2e import kiosk


def status(r, name):
    try:
        return json.loads(r.text(name))
    except json.JSONDecodeError as e:
        r.fail(f"{name} is not JSON ({e}):\n{r.text(name)}")
        return {"values": []}


def values(doc):
    return {v["id"]: v for v in doc.get("values", [])}


def check(r):
    r.expect_rc("check", 0)
    r.expect_rc("kiosk", 0)
    first = values(status(r, "status-first.json"))
    r.expect(first.get("hang", {}).get("state") == "failed" and "timed out after 0.5 s (killed)" in (first["hang"].get("why") or ""),
             f"the hanging command: {first.get('hang')}")
    for name in ("room", "nozzle", "lights"):
        r.expect(first.get(name, {}).get("state") == "ok", f"{name}: {first.get(name)}")
    for name in ("first", "updated", "on", "off"):
        if name != "off":
            r.expect_rc(f"render-{name}", 0)
    kiosk.expect_same_image(r, "first.png", "render-first.png")
    kiosk.expect_same_image(r, "updated.png", "render-updated.png")
    kiosk.expect_same_image(r, "on.png", "render-on.png")
    # Off again by the knob: the same picture as before the tap.
    kiosk.expect_same_image(r, "off.png", "render-updated.png")
    on = status(r, "status-on.json")
    r.expect((on.get("last_action") or {}).get("action") == "toggle", f"after the tap: {on.get('last_action')}")
    r.expect(r.text("switches.txt").split() == ["1", "0"], f"switch commands run: {r.text('switches.txt')!r}")
    err = r.text("kiosk.err")
    # The hang is logged once, not at every refresh.
    logged = err.count('value "hang": timed out')
    r.expect(logged == 1, f"the hang was logged {logged} times")
