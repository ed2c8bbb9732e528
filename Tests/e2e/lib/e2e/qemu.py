"""Running one guest: qemu with a results disk, the serial console captured to a file,
and a host-side timeout (qemu exits 0 on any poweroff, so the log tells what happened)."""
import os
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

RESULTS_DISK_MB = 256


def accel():
    """KVM only where it works: /dev/kvm writable and not the nested PVM flavour."""
    forced = os.environ.get("KIOSK_E2E_ACCEL")
    if forced:
        return forced
    if os.access("/dev/kvm", os.W_OK) and not Path("/sys/module/kvm_pvm").exists():
        return "kvm"
    return "tcg"


def accel_args(name):
    if name == "kvm":
        return ["-accel", "kvm", "-cpu", "host"]
    return ["-accel", "tcg", "-cpu", "max"]


class Boot:
    """Outcome of a boot: elapsed seconds, whether the host killed it, the serial text."""

    def __init__(self, elapsed, timed_out, serial):
        self.elapsed, self.timed_out, self.serial = elapsed, timed_out, serial


def run(kernel, initrd, run_dir, timeout, memory_mb=1024, append="", disks=(), verbose=False):
    """Boots kernel+initrd with run_dir/results.img as the first virtio disk (/dev/vda), then
    disks (/dev/vdb...) as snapshots: the guest may write them, the files never change."""
    results_img = run_dir / "results.img"
    with open(results_img, "wb") as f:
        f.truncate(RESULTS_DISK_MB << 20)
    serial_log = run_dir / "serial.log"
    mode = accel()
    cmd = ["qemu-system-x86_64", *accel_args(mode), "-M", "pc", "-m", str(memory_mb), "-smp", "2",
           "-display", "none", "-no-reboot", "-vga", "none", "-nic", "none", "-monitor", "none",
           "-serial", "stdio", "-kernel", str(kernel), "-initrd", str(initrd),
           "-drive", f"file={results_img},format=raw,if=virtio,cache=unsafe",
           "-append", f"console=ttyS0 panic=-1 loglevel=4 {append}".strip()]
    for d in disks:
        cmd += ["-drive", f"file={d},format=raw,if=virtio,snapshot=on"]
    (run_dir / "qemu-command.txt").write_text(" ".join(cmd) + "\n")
    t0 = time.monotonic()
    with open(serial_log, "wb") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def pump():  # to the log file as it comes, so a killed guest still leaves its log
            for chunk in iter(lambda: proc.stdout.read1(4096), b""):
                log.write(chunk)
                log.flush()
                if verbose:
                    sys.stderr.buffer.write(chunk)
                    sys.stderr.flush()

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            proc.wait()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        reader.join(5)
    serial = serial_log.read_bytes().decode("utf-8", "replace")
    if proc.returncode not in (0, None) and not timed_out:
        serial += f"\n[host] qemu exited with status {proc.returncode}\n"
    return Boot(time.monotonic() - t0, timed_out, serial)


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
