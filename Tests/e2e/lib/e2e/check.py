"""What a scenario's check.py gets: `def check(r)` is called with a Result.

    def check(r):
        r.expect_rc("kiosk", 0)                       # kiosk.rc written by e2e_run/e2e_stop
        r.expect("connected" in r.text("status.out"), "connector not connected")
        img = r.png("screenshot.png")
        r.expect(img.width == 1024, f"width {img.width}")

expect() records a failure and goes on; require() (and text/png of a missing file) stops
the check. Every failure is reported; the scenario passes only with none.
"""
import json
import subprocess

from . import png


class CheckFailed(Exception):
    pass


class Result:
    def __init__(self, name, results_dir, serial):
        self.name = name
        self.dir = results_dir
        self.serial = serial
        self.failures = []
        self.notes = []
        # The host files put on the guest's PATH, by name (e.g. "kiosk"): what the guest ran.
        self.payload = {}
        # The guest's architecture and suite (Tests/e2e/run --arch/--suite), and the kiosk that
        # renders reference images on the host (the payload's where the host runs it; the x86_64
        # build for an arm64 guest).
        self.arch, self.suite, self.host_kiosk = "amd64", "bookworm", None
        self.slow = 1  # target.slow: 3 on arm64 (emulated on x86_64), for time limits

    # Files that came back from the guest's /results.
    def path(self, name):
        return self.dir / name

    def exists(self, name):
        return (self.dir / name).exists()

    def text(self, name):
        self.require(self.exists(name), f"the guest did not return {name}")
        return (self.dir / name).read_text(errors="replace")

    def lines(self, name):
        return self.text(name).splitlines()

    def json(self, name):
        """A JSON file the guest returned (the status file, most often), parsed; a clear failure
        when it is not JSON."""
        try:
            return json.loads(self.text(name))
        except json.JSONDecodeError as e:
            self.fail(f"{name} is not JSON ({e}):\n{self.text(name)}")

    def rc(self, name):
        """The exit status recorded as NAME.rc: an int, or 'timeout'."""
        v = self.text(f"{name}.rc").strip()
        return int(v) if v.lstrip("-").isdigit() else v

    def png(self, name):
        self.require(self.exists(name), f"the guest did not return {name}")
        try:
            return png.read(self.dir / name)
        except Exception as e:
            raise CheckFailed(f"{name}: {e}")

    # Assertions.
    def expect(self, cond, msg):
        if not cond:
            self.failures.append(msg)
        return bool(cond)

    def require(self, cond, msg):
        if not cond:
            raise CheckFailed(msg)

    def fail(self, msg):
        raise CheckFailed(msg)

    def expect_rc(self, name, want=0):
        """Expects NAME.rc == want; on failure quotes the end of NAME.err."""
        got = self.rc(name)
        if got != want:
            err = self.path(f"{name}.err")
            tail = "\n".join(err.read_text(errors="replace").splitlines()[-15:]) if err.exists() else ""
            self.failures.append(f"{name} exited {got}, expected {want}" + (f"; its stderr ends:\n{tail}" if tail else ""))
        return got == want

    def note(self, msg):
        self.notes.append(msg)

    def host(self, *cmd, check=True, env=None):
        """Runs a host command (e.g. a reference renderer); its output as text."""
        r = subprocess.run([str(c) for c in cmd], text=True, capture_output=True, env=env)
        if check and r.returncode != 0:
            raise CheckFailed(f"host command {' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stderr[-2000:]}")
        return r
