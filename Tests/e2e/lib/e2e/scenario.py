"""Scenarios: directories under Tests/e2e/scenarios with guest.sh and check.py.

guest.sh may start with header comments that configure the run:
    # e2e-timeout: 240        host-side limit for the whole boot, seconds (default 180)
    # e2e-silence: 120        host-side limit for a stretch without serial output (default 120)
    # e2e-needs: kiosk        payload binaries that must exist, or the scenario fails
    # e2e-memory: 1024        guest RAM in MB
    # e2e-mode: fast          fast (busybox initramfs) or systemd
    # e2e-ends: poweroff      the system shuts down by itself (poweroff or reboot; systemd
                              mode): guest.sh ends with e2e_shutdown_by, and the host wants
                              systemd's whole shutdown on the console instead of DONE
    # e2e-net: ssh            a network card (qemu user networking) whose only way in is a
                              free loopback port of the host forwarded to the guest's sshd,
                              root reachable with a key made for the run (systemd mode); the
                              scenario's host.py, if any, acts from the host while it runs
    # e2e-alone: WHY          with --jobs, no other guest runs beside this one (WHY: what its
                              checks time that another guest's load on the host would break)
    # e2e-figures: WHAT       it prints figures (WHAT) that are the machine's own only when the
                              guest runs alone (Tests/e2e/run NAME); it passes or fails the
                              same beside another, so --jobs runs it beside others
"""
import re
from pathlib import Path

from . import cache

SCENARIOS = cache.E2E_DIR / "scenarios"


class Scenario:
    def __init__(self, path):
        self.dir = path
        self.name = path.name
        self.guest = path / "guest.sh"
        self.check = path / "check.py"
        self.timeout, self.memory, self.mode, self.needs = 180, 1024, "fast", []
        self.silence = 120
        self.ends = None
        self.net = None
        self.alone = None
        self.figures = None
        self.host = path / "host.py" if (path / "host.py").is_file() else None
        for line in self.guest.read_text().splitlines():
            m = re.match(r"#\s*e2e-(\w+):\s*(.*?)\s*$", line)
            if not m:
                continue
            k, v = m.groups()
            if k == "timeout":
                self.timeout = int(v)
            elif k == "silence":
                self.silence = int(v)
            elif k == "memory":
                self.memory = int(v)
            elif k == "mode":
                self.mode = v
            elif k == "needs":
                self.needs = v.split()
            elif k == "ends":
                if v not in ("poweroff", "reboot"):
                    raise ValueError(f"{self.guest}: e2e-ends: {v!r} (poweroff or reboot)")
                self.ends = v
            elif k == "alone":
                self.alone = v or "yes"
            elif k == "figures":
                self.figures = v or "yes"
            elif k == "net":
                if v != "ssh":
                    raise ValueError(f"{self.guest}: e2e-net: {v!r} (ssh)")
                self.net = v
            else:
                raise ValueError(f"{self.guest}: unknown header e2e-{k}")
        if self.ends and self.mode != "systemd":
            raise ValueError(f"{self.guest}: e2e-ends needs e2e-mode: systemd")
        if self.net and self.mode != "systemd":
            raise ValueError(f"{self.guest}: e2e-net needs e2e-mode: systemd")
        if self.host and not self.net:
            raise ValueError(f"{self.host}: a host step reaches the guest over ssh: add `# e2e-net: ssh`")


def all_scenarios():
    return [Scenario(p) for p in sorted(SCENARIOS.iterdir()) if (p / "guest.sh").is_file()]


def select(names):
    """Scenarios by name, or by path to a scenario directory (for one kept elsewhere)."""
    known = {s.name: s for s in all_scenarios()}
    if not names:
        return list(known.values())
    picked = []
    for n in names:
        if n in known:
            picked.append(known[n])
        elif "/" in n and (Path(n) / "guest.sh").is_file():
            picked.append(Scenario(Path(n).resolve()))
        else:
            raise SystemExit(f"e2e: unknown scenario {n!r}; known: {', '.join(known)}")
    return picked
