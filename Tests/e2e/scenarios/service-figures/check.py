"""Service figures: startup, idle CPU, memory (reported as notes; nothing asserted on timing);
the exposure with the backlight's ReadWritePaths= drop-in at most 2.0, and that drop-in's
mechanism (a /sys/class link in ReadWritePaths= opens the device's file under ProtectKernelTunables=)."""

from e2e import kiosk


def check(r):
    r.expect_rc("install", 0)
    for name in ("startup.txt", "idle-cpu.txt", "memory.txt"):
        r.require(r.exists(name), f"{name} missing")
        for line in r.lines(name):
            r.note(f"{name}: {line}")
    r.expect("same_pid=yes" in r.text("idle-cpu.txt"), "the kiosk restarted during the idle minute")
    r.expect("failed" not in r.text("memory.txt"), f"a mode did not start:\n{r.text('memory.txt')}")
    kiosk.expect_exposure(r, "with the backlight drop-in")
    without, with_ = r.text("sysfs-without.txt"), r.text("sysfs-with.txt")
    r.expect("rc=0" not in without and "rc=" in without,
             f"ProtectKernelTunables= alone let a sysfs write through:\n{without}")
    r.expect("rc=0" in with_, f"ReadWritePaths= naming a /sys/class link did not open the file:\n{with_}")
