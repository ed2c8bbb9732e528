"""Service figures: startup, idle CPU, memory (reported as notes; nothing asserted on timing)."""


def check(r):
    r.expect_rc("install", 0)
    for name in ("startup.txt", "idle-cpu.txt", "memory.txt"):
        r.require(r.exists(name), f"{name} missing")
        for line in r.lines(name):
            r.note(f"{name}: {line}")
    r.expect("same_pid=yes" in r.text("idle-cpu.txt"), "the kiosk restarted during the idle minute")
    r.expect("failed" not in r.text("memory.txt"), f"a mode did not start:\n{r.text('memory.txt')}")
