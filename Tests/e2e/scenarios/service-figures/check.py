"""Service figures: startup, idle CPU, memory (reported as notes; nothing asserted on timing);
the exposure with the backlight's ReadWritePaths= drop-in at most 2.0, and that drop-in's
mechanism (a /sys/class link in ReadWritePaths= opens the device's file under ProtectKernelTunables=).
The example config uses no SVG icon, no broker and no speech: the kiosk maps none of the
libraries it opens only for those (librsvg, cairo, libmosquitto, espeak-ng, ALSA; GLib is
mapped all the same: HarfBuzz and libinput link it)."""

import re

from e2e import kiosk

# What the kiosk opens only when a config uses it (Sources/CRsvg, CMosquitto, CEspeak, CAlsa).
OPTIONAL = ("librsvg-2", "libcairo.", "libmosquitto", "libespeak-ng", "libasound")


def check(r):
    r.expect_rc("install", 0)
    for name in ("startup.txt", "idle-cpu.txt", "memory.txt"):
        r.require(r.exists(name), f"{name} missing")
        for line in r.lines(name):
            r.note(f"{name}: {line}")
    r.expect("same_pid=yes" in r.text("idle-cpu.txt"), "the kiosk restarted during the idle minute")
    r.expect("failed" not in r.text("memory.txt"), f"a mode did not start:\n{r.text('memory.txt')}")
    kiosk.expect_exposure(r, "with the backlight drop-in")
    smaps = r.text("smaps-1024x768.txt")
    mapped = sorted({m.group(1) for m in re.finditer(r"^[0-9a-f]+-[0-9a-f]+ .* (/\S+\.so[.0-9]*)$", smaps, re.M)})
    r.note(f"libraries mapped with the example config: {len(mapped)}")
    r.expect(mapped, "no shared library found in the kiosk's smaps")
    optional = [lib for lib in mapped if any(name in lib for name in OPTIONAL)]
    r.expect(not optional, f"the kiosk mapped libraries the example config does not use: {optional}")
    without, with_ = r.text("sysfs-without.txt"), r.text("sysfs-with.txt")
    r.expect("rc=0" not in without and "rc=" in without,
             f"ProtectKernelTunables= alone let a sysfs write through:\n{without}")
    r.expect("rc=0" in with_, f"ReadWritePaths= naming a /sys/class link did not open the file:\n{with_}")
