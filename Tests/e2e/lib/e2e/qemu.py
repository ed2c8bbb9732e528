"""Running one guest: qemu with a results disk, the serial console captured to a file,
and host-side limits (qemu exits 0 on any poweroff, so the log tells what happened).

A stalled guest is caught two ways: the scenario's whole-boot timeout, and a silence limit
(no new serial output for that long). Either way the host first asks the guest what it is
doing over the agent channel (a virtio serial port served by guest/agent, independent of the
serial console and of systemd) and keeps the answers in diagnosis.txt, then kills qemu."""
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

RESULTS_DISK_MB = 256


def accel(arch="amd64"):
    """KVM only where it works: /dev/kvm writable and not the nested PVM flavour, and the
    guest's architecture the host's (an arm64 guest on x86_64 is always TCG)."""
    forced = os.environ.get("KIOSK_E2E_ACCEL")
    if forced:
        return forced
    if arch != {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine):
        return "tcg"
    if os.access("/dev/kvm", os.W_OK) and not Path("/sys/module/kvm_pvm").exists():
        return "kvm"
    return "tcg"


def accel_args(name, arch="amd64", baseline=False):
    """baseline: under TCG, an amd64 guest gets the plain x86-64 CPU (qemu64) instead of every
    feature TCG emulates (max). Debian's glibc then takes its SSE2 string and maths functions,
    not the AVX2 and FMA ones TCG runs slowly: systemd-mode scenarios run 14-17 % faster
    (BENCHMARKS.md). Fast mode gains nothing and keeps max."""
    if name == "kvm":
        return ["-accel", "kvm", "-cpu", "host"]
    if arch == "arm64":
        # cortex-a72: -cpu max adds pointer authentication, whose emulation costs TCG dearly.
        return ["-accel", "tcg", "-cpu", "cortex-a72"]
    return ["-accel", "tcg", "-cpu", "qemu64" if baseline else "max"]


def machine_args(arch, mode, baseline=False):
    """The board, console and display: a PC whose display is vkms (-vga none), or arm64's
    virt board with virtio-gpu-pci at 1024x768 (vkms's size, so the scenarios' layouts hold)."""
    if arch == "arm64":
        return ["qemu-system-aarch64", *accel_args(mode, arch), "-M", "virt",
                "-device", "virtio-gpu-pci,xres=1024,yres=768"], "ttyAMA0", ""
    # no_timer_check: the kernel's check that the IO-APIC timer ticks during boot fails on a
    # host too busy to run TCG at speed ("IO-APIC + timer doesn't work!", a panic); the
    # timer works, the check is for broken real hardware.
    return (["qemu-system-x86_64", *accel_args(mode, arch, baseline), "-M", "pc", "-vga", "none"],
            "ttyS0", "no_timer_check")


class Boot:
    """Outcome of a boot: elapsed seconds, why the host killed it (None if it did not), the
    serial text, and the agent's answers when the host had to step in."""

    def __init__(self, elapsed, stopped, serial, diagnosis=""):
        self.elapsed, self.stopped, self.serial, self.diagnosis = elapsed, stopped, serial, diagnosis

    @property
    def timed_out(self):
        return self.stopped is not None


def agent_socket_path(run_dir):
    """A unix socket path short enough for sun_path (108 bytes), preferably in run_dir."""
    p = run_dir / "agent.sock"
    if len(str(p)) < 100:
        return p
    return Path(tempfile.mkdtemp(prefix="kiosk-e2e-")) / "agent.sock"


class Agent:
    """The host end of guest/agent: one command line out, its output back until the END line."""

    def __init__(self, path):
        self.path, self.sock, self.buf = path, None, b""

    def connect(self):
        if self.sock is None and self.path.exists():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(str(self.path))
                self.sock = s
            except OSError:
                s.close()
        return self.sock is not None

    def ask(self, command, timeout=30):
        if not self.connect():
            return None
        self.sock.settimeout(1)
        try:
            self.sock.sendall(command.encode() + b"\n")
        except OSError as e:
            return f"(agent: {e})"
        end = time.monotonic() + timeout
        marker = b"KIOSK-E2E-AGENT-END "
        while time.monotonic() < end:
            i = self.buf.find(marker)
            if i >= 0 and b"\n" in self.buf[i:]:
                j = self.buf.index(b"\n", i)
                out, status, self.buf = self.buf[:i], self.buf[i + len(marker):j], self.buf[j + 1:]
                text = out.decode("utf-8", "replace").replace("\r\n", "\n")
                return text + ("" if status == b"0" else f"(exit {status.decode()})\n")
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError as e:
                return f"(agent: {e})"
            if not chunk:
                return "(agent: connection closed)"
            self.buf += chunk
        return None

    def close(self):
        if self.sock is not None:
            self.sock.close()


# What diagnosis.txt says when the agent does not answer (Tests/e2e/run reads it).
AGENT_SILENT = "the guest's agent did not answer"


def diagnose(agent):
    """The guest's state from the agent, as text (says so if the agent does not answer)."""
    if agent.ask("echo agent-ok", timeout=15) is None:
        return f"{AGENT_SILENT} (guest kernel hung, or the agent never started)\n"
    answer = agent.ask("/e2e/diagnose", timeout=70)
    return answer if answer is not None else "(the agent started /e2e/diagnose but it did not finish within 70 s)\n"


def nic_args(ssh_port):
    """No network, or qemu's user networking with nothing but the host's loopback port
    ssh_port forwarded to the guest's sshd (restrict=on: the guest reaches nothing outside)."""
    if ssh_port is None:
        return ["-nic", "none"]
    return ["-nic", f"user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:{ssh_port}-:22"]


def run(kernel, initrd, run_dir, timeout, memory_mb=1024, append="", disks=(), verbose=False, silence=None,
        ssh_port=None, while_running=None, arch="amd64", baseline_cpu=False):
    """Boots kernel+initrd with run_dir/results.img as the first virtio disk (/dev/vda), then
    disks (/dev/vdb...) as snapshots: the guest may write them, the files never change.
    Stops the guest after timeout seconds, or after silence seconds without serial output.
    ssh_port: forward that loopback port to the guest's port 22. while_running: called once
    qemu has started; what it returns is called when qemu has ended (a host-side step).
    baseline_cpu: see accel_args."""
    results_img = run_dir / "results.img"
    with open(results_img, "wb") as f:
        f.truncate(RESULTS_DISK_MB << 20)
    serial_log = run_dir / "serial.log"
    agent_path = agent_socket_path(run_dir)
    mode = accel(arch)
    board, console, quirks = machine_args(arch, mode, baseline_cpu)
    cmd = [*board, "-m", str(memory_mb), "-smp", "2",
           "-display", "none", "-no-reboot", *nic_args(ssh_port), "-monitor", "none",
           "-serial", "stdio", "-kernel", str(kernel), "-initrd", str(initrd),
           "-drive", f"file={results_img},format=raw,if=virtio,cache=unsafe",
           "-device", "virtio-serial-pci,id=e2eser",
           "-chardev", f"socket,id=e2eagent,path={agent_path},server=on,wait=off",
           "-device", "virtserialport,bus=e2eser.0,chardev=e2eagent,name=kiosk-e2e.agent",
           "-append", f"console={console} panic=-1 loglevel=4 {quirks} {append}".strip()]
    for d in disks:
        cmd += ["-drive", f"file={d},format=raw,if=virtio,snapshot=on"]
    (run_dir / "qemu-command.txt").write_text(" ".join(cmd) + "\n")
    t0 = time.monotonic()
    last_output = [t0]
    agent = Agent(agent_path)
    with open(serial_log, "wb") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def pump():  # to the log file as it comes, so a killed guest still leaves its log
            for chunk in iter(lambda: proc.stdout.read1(4096), b""):
                last_output[0] = time.monotonic()
                log.write(chunk)
                log.flush()
                if verbose:
                    sys.stderr.buffer.write(chunk)
                    sys.stderr.flush()

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        ended = while_running() if while_running else None
        stopped, diagnosis = None, ""
        try:
            while proc.poll() is None:
                now = time.monotonic()
                if now - t0 > timeout:
                    stopped = f"guest timed out after {now - t0:.0f}s (killed by the host)"
                elif silence and now - last_output[0] > silence:
                    stopped = (f"guest stalled: no serial output for {now - last_output[0]:.0f}s "
                               f"(limit {silence:.0f}s; killed by the host after {now - t0:.0f}s)")
                if stopped:
                    diagnosis = diagnose(agent)
                    (run_dir / "diagnosis.txt").write_text(f"{stopped}\n\n{diagnosis}")
                    proc.kill()
                    break
                time.sleep(0.5)
            proc.wait()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            if ended:
                ended()
            agent.close()
            if agent_path.parent != run_dir:
                agent_path.unlink(missing_ok=True)
                agent_path.parent.rmdir()
        reader.join(5)
    serial = serial_log.read_bytes().decode("utf-8", "replace")
    if proc.returncode not in (0, None) and not stopped:
        serial += f"\n[host] qemu exited with status {proc.returncode}\n"
    return Boot(time.monotonic() - t0, stopped, serial, diagnosis)


def extract_results(run_dir, dest):
    """Unpacks the tar the guest wrote onto the results disk; False if there is none."""
    img = run_dir / "results.img"
    with open(img, "rb") as f:
        if f.read(512).strip(b"\0") == b"":
            return False
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(img, "r:") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:
            tar.extractall(dest)
    img.unlink()  # sparse, but 256 MB apparent size; the files are what matter
    return True
