"""The host acting while the guest runs: a scenario's host.py (`e2e-net: ssh`, systemd mode).

The guest reaches a point where the host must do something (run Ansible against it, say) and
calls `e2e_host NAME`: that prints `KIOSK-E2E: HOST-STEP NAME` on the serial console and waits
for /run/kiosk-e2e-host/NAME. On the host, host.py's `host(h)` runs in a thread from qemu's
start; `with h.step("NAME"):` waits for that line, runs the block, and then writes the block's
outcome (0, or 1 if it raised) into that file over ssh, which lets the guest go on; if host.py
fails outside a step, /run/kiosk-e2e-host/ABORTED makes every `e2e_host` fail at once. The guest
is reached through qemu's user networking, which forwards one loopback port of the host to the
guest's port 22 and nothing else; root logs in with a key made for this run (its public half
goes to the guest in the payload, `/e2e/ssh/authorized_keys`).

What the host does is kept in files/host/ beside what the guest returns (NAME.log per step,
ssh and commands with their output); an exception in a step is a failure of the scenario."""
import re
import shlex
import socket
import subprocess
import threading
import time
import traceback
from contextlib import contextmanager
from pathlib import Path


def free_port():
    """A loopback TCP port nothing listens on now (qemu binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_key(run_dir):
    """A fresh ed25519 key pair for this run: (private key path, public key text)."""
    key = run_dir / "ssh-key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "kiosk-e2e", "-f", str(key)], check=True)
    return key, (run_dir / "ssh-key.pub").read_text()


class StepFailed(Exception):
    pass


class Host:
    """What host.py's `host(h)` gets."""

    def __init__(self, serial_log, out_dir, scratch, port, key, payload, timeout_scale=1.0):
        self.serial_log, self.port, self.key = serial_log, port, key
        self.dir = out_dir  # files/host/: kept with the results
        self.scratch = scratch  # removed after the run (a .deb, its staging tree)
        for d in (self.dir, self.scratch):
            d.mkdir(parents=True, exist_ok=True)
        self.payload = payload  # binaries given to the guest, by name (as in check.py's r.payload)
        self.timeout_scale = timeout_scale
        self.failures = []
        self.stop = threading.Event()  # set when the guest is gone

    # ssh to the guest (no known_hosts: every run's guest is new).
    @property
    def ssh_options(self):
        return ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                "-o", "ConnectTimeout=10", "-o", "BatchMode=yes", "-i", str(self.key), "-p", str(self.port)]

    def ssh(self, command, timeout=120, check=True):
        """Runs a shell command in the guest as root; its CompletedProcess."""
        r = subprocess.run(["ssh", *self.ssh_options, "root@127.0.0.1", command], text=True,
                           capture_output=True, timeout=timeout * self.timeout_scale)
        self.log("ssh", f"$ {command}\n{r.stdout}{r.stderr}(exit {r.returncode})\n")
        if check and r.returncode != 0:
            raise StepFailed(f"ssh {command!r} exited {r.returncode}: {r.stderr[-1000:]}")
        return r

    def run(self, name, cmd, timeout=900, env=None, cwd=None):
        """A host command, its output (stdout and stderr together) written to NAME.log as it
        comes; a CompletedProcess with that output as stdout (not checked)."""
        log = self.dir / f"{name}.log"
        cmd = [str(c) for c in cmd]
        t0 = time.monotonic()
        with open(log, "w") as f:
            f.write(f"$ {shlex.join(cmd)}\n")
            f.flush()
            try:
                rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                    timeout=timeout * self.timeout_scale).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        took = time.monotonic() - t0
        output = log.read_text(errors="replace").split("\n", 1)[1]
        with open(log, "a") as f:
            f.write(f"(exit {rc} after {took:.1f}s)\n")
        (self.dir / f"{name}.rc").write_text(f"{rc}\n")
        (self.dir / f"{name}.seconds").write_text(f"{took:.3f}\n")
        return subprocess.CompletedProcess(cmd, rc if rc != "timeout" else -1, output, "")

    def log(self, name, text):
        with open(self.dir / f"{name}.log", "a") as f:
            f.write(text)

    def wait_for_serial(self, line, timeout):
        """Waits until the guest's serial console has `line`; raises on timeout or guest gone."""
        deadline = time.monotonic() + timeout * self.timeout_scale
        want = re.compile(re.escape(line.encode()) + rb"\r?\n")
        while time.monotonic() < deadline:
            if self.serial_log.exists() and want.search(self.serial_log.read_bytes()):
                return
            if self.stop.wait(0.2):
                raise StepFailed(f"the guest ended before it said {line!r}")
        raise StepFailed(f"the guest did not say {line!r} within {timeout:.0f}s")

    @contextmanager
    def step(self, name, timeout=600):
        """Waits for the guest's `e2e_host NAME`, runs the block, tells the guest how it went."""
        self.wait_for_serial(f"KIOSK-E2E: HOST-STEP {name}", timeout)
        self.log("steps", f"{name}: start\n")
        status = 1
        try:
            yield
            status = 0
        finally:
            self.log("steps", f"{name}: {'done' if status == 0 else 'failed'}\n")
            self.ssh(f"mkdir -p /run/kiosk-e2e-host && echo {status} > /run/kiosk-e2e-host/{shlex.quote(name)}.tmp"
                     f" && mv /run/kiosk-e2e-host/{shlex.quote(name)}.tmp /run/kiosk-e2e-host/{shlex.quote(name)}",
                     check=False)

    def abort(self):
        """The host gives up: every step the guest waits for now, or will, fails at once."""
        if not self.stop.is_set():
            self.ssh("mkdir -p /run/kiosk-e2e-host && touch /run/kiosk-e2e-host/ABORTED", timeout=60, check=False)

    def expect(self, cond, msg):
        if not cond:
            self.failures.append(msg)
        return bool(cond)


def start(host_py, h):
    """Runs host_py's host(h) in a thread; exceptions become h.failures. Returns the thread."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"e2e_host_{host_py.parent.name}", host_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def body():
        try:
            mod.host(h)
            return
        except StepFailed as e:
            h.failures.append(f"host step: {e}")
        except Exception:
            h.failures.append("host.py crashed:\n" + traceback.format_exc())
        h.log("steps", h.failures[-1] + "\n")
        h.abort()

    t = threading.Thread(target=body, daemon=True, name="e2e-host")
    t.start()
    return t
