"""Smoke: the display and input plumbing of the guest, checked from what came back."""
import re

# Bits from linux/input-event-codes.h.
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 47, 53, 54, 57
REL_DIAL, REL_WHEEL, REL_WHEEL_HI_RES = 7, 8, 11
KEY_ENTER, KEY_ESC, KEY_VOLUMEUP, BTN_0, BTN_TOUCH = 28, 1, 115, 0x100, 0x14a
INPUT_PROP_DIRECT = 1


def devices(text):
    """/proc/bus/input/devices as {name: {'H': handlers, 'PROP': int, 'ABS': int, ...}}."""
    out = {}
    for block in text.strip().split("\n\n"):
        d = {}
        for line in block.splitlines():
            kind, _, rest = line.partition(": ")
            if kind == "N":
                d["name"] = rest.split("=", 1)[1].strip('"')
            elif kind == "H":
                d["H"] = rest.split("=", 1)[1].split()
            elif kind == "B":
                k, v = rest.split("=", 1)
                d[k] = int("".join(w.rjust(16, "0") for w in v.split()), 16)  # words, most significant first
        out[d.get("name")] = d
    return out


def has(mask, *bits):
    return all(mask >> b & 1 for b in bits)


def events(r, short):
    return [tuple(l.split()[1:]) for l in r.lines(f"events-{short}.out") if not l.startswith("#")]


def check(r):
    if r.arch == "amd64":
        r.expect(r.text("card0-device.txt").strip() == "vkms", f"card0 belongs to {r.text('card0-device.txt').strip()!r}, not vkms")
        r.expect("vkms" in r.text("dri-name.txt"), "debugfs dri/0/name does not name vkms")
    else:  # arm64: qemu's virtio-gpu-pci (Debian's arm64 kernel has no vkms)
        dev = r.text("card0-device.txt").strip()
        r.expect(re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", dev), f"card0 belongs to {dev!r}, not a PCI device")
        r.expect(r.text("dri-name.txt").startswith(f"virtio_gpu dev={dev} "),
                 f"debugfs dri/0/name does not name virtio_gpu on {dev}: {r.text('dri-name.txt')!r}")
    conn = r.text("connectors.txt")
    r.expect("Virtual-1 connected" in conn, f"no connected Virtual-1 connector:\n{conn}")
    r.expect("mode 1024x768" in conn, f"connector has no 1024x768 mode:\n{conn}")
    r.expect("card0" in r.text("dev-dri.txt"), "/dev/dri/card0 missing")
    r.expect(r.exists("dri-state.txt"), "debugfs dri/0/state not returned")

    r.expect(r.text("display-off.txt").strip() == "disconnected", f"forcing the connector off gave {r.text('display-off.txt')!r}")
    r.expect(r.text("display-detect.txt").strip() == "connected", f"re-detecting the connector gave {r.text('display-detect.txt')!r}")
    ev = r.text("drm-uevents.txt")
    r.expect(ev.count("\nACTION=change\n") >= 2 and ev.count("\nHOTPLUG=1\n") >= 2, f"udev did not pass on the two drm hotplug uevents:\n{ev}")

    owners = r.lines("dev-owners.txt")
    r.expect(all(l.split()[3] == "44" for l in owners if "/dev/dri/" in l), f"/dev/dri/card0 is not group video (44):\n{owners}")
    r.expect(all(l.split()[3] == "101" for l in owners if "/dev/input/" in l), f"event nodes are not group input (101):\n{owners}")
    r.expect_rc("as-kiosk", 0)
    out = r.text("as-kiosk.out")
    r.expect("uid=1000" in out and "card-ok" in out and "input-ok" in out, f"user kiosk cannot open card0 and event nodes:\n{out}")

    devs = devices(r.text("input-devices-added.txt"))
    want = {
        "kiosk-e2e touch ts": lambda d: has(d.get("ABS", 0), ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X,
                                             ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID)
                                         and has(d.get("PROP", 0), INPUT_PROP_DIRECT) and has(d.get("KEY", 0), BTN_TOUCH),
        "kiosk-e2e wheel wh": lambda d: has(d.get("REL", 0), REL_WHEEL, REL_WHEEL_HI_RES),
        "kiosk-e2e keys kb": lambda d: has(d.get("KEY", 0), KEY_VOLUMEUP, KEY_ENTER, KEY_ESC),
        "Griffin PowerMate": lambda d: has(d.get("REL", 0), REL_DIAL) and has(d.get("KEY", 0), BTN_0),
    }
    for name, ok in want.items():
        d = devs.get(name)
        if r.expect(d is not None, f"input device {name!r} not in /proc/bus/input/devices"):
            r.expect(any(h.startswith("event") for h in d.get("H", [])), f"{name!r} has no event handler: {d.get('H')}")
            r.expect(ok(d), f"{name!r} lacks capabilities: {d}")

    r.expect("ID_INPUT_TOUCHSCREEN=1" in r.text("udev-touch.txt"), "udev does not see the touchscreen as one")
    r.expect("ID_INPUT_KEY=1" in r.text("udev-keys.txt"), "udev does not see the key knob as keys")
    for short in ("wheel", "dial"):
        r.note(f"udev on the {short}: " + " ".join(l[3:] for l in r.lines(f"udev-{short}.txt") if l.startswith("E: ID_INPUT")))

    t = events(r, "touch")
    r.expect(("EV_ABS", "ABS_MT_POSITION_X", "100") in t and ("EV_ABS", "ABS_MT_POSITION_Y", "200") in t, "tap at 100,200 not seen")
    r.expect(("EV_ABS", "ABS_MT_POSITION_X", "500") in t and ("EV_ABS", "ABS_MT_POSITION_Y", "400") in t, "drag end 500,400 not seen")
    r.expect(t.count(("EV_KEY", "BTN_TOUCH", "1")) == 3 and t.count(("EV_KEY", "BTN_TOUCH", "0")) == 3,
             "expected 3 touch sequences (tap, drag, two fingers)")
    r.expect(("EV_ABS", "ABS_MT_SLOT", "1") in t and ("EV_ABS", "ABS_MT_POSITION_Y", "400") in t, "second finger not seen")

    w = events(r, "wheel")
    # 3 up, 2 down, then 3 x 60 hi-res units: one more detent up once 120 accumulate.
    r.expect(w.count(("EV_REL", "REL_WHEEL", "1")) == 4, f"REL_WHEEL +1 x{w.count(('EV_REL', 'REL_WHEEL', '1'))}, expected 4")
    r.expect(w.count(("EV_REL", "REL_WHEEL", "-1")) == 2, "REL_WHEEL -1 not seen twice")
    r.expect(w.count(("EV_REL", "REL_WHEEL_HI_RES", "60")) == 3, "hi-res partial steps not seen")
    r.expect(w.count(("EV_REL", "REL_WHEEL_HI_RES", "120")) == 3, "hi-res +120 per detent not seen")

    k = events(r, "keys")
    for key in ("KEY_VOLUMEUP", "KEY_ENTER", "KEY_ESC"):
        r.expect(("EV_KEY", key, "1") in k and ("EV_KEY", key, "0") in k, f"{key} press/release not seen")

    d = events(r, "dial")
    r.expect(d.count(("EV_REL", "REL_DIAL", "1")) == 5 and d.count(("EV_REL", "REL_DIAL", "-1")) == 2, "dial turns not seen")
    r.expect(("EV_KEY", "BTN_0", "1") in d and ("EV_KEY", "BTN_0", "0") in d, "dial press not seen")

    hp = r.text("hotplug.txt") if r.exists("hotplug.txt") else ""
    r.expect("unplugged" in hp and "replugged" in hp, f"unplug/replug of the key knob failed: {hp!r}")
    r.expect_rc("uinput", 0)
