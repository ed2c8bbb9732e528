"""What the guest is: its architecture (amd64, arm64) and its Debian suite (bookworm, trixie).

amd64 + bookworm is the test bed as it always was (Debian 12's 6.1 kernel with vkms built out
of tree, a busybox initramfs for fast mode, a debootstrap root for systemd mode). Other suites
on amd64 change only the systemd-mode root (made by mmdebstrap); the kernel stays Debian 12's
(see README). arm64 is Debian 13 throughout: its 6.12 kernel (virtio-gpu, no vkms) in
qemu-system-aarch64 -M virt, and a Debian 13 arm64 root made by mmdebstrap under qemu-user,
booted for both modes (fast mode runs guest/init on it instead of systemd).

Also: an apt of its own for another suite or architecture than the host's (lists under the
cache), used to download that suite's kernel packages without touching the host's sources.
"""
import os
import subprocess
import time
from pathlib import Path

from . import cache
from .cache import log

ARCHES = ("amd64", "arm64")
SUITES = ("bookworm", "trixie")
HOST_SUITE = "bookworm"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


class Target:
    def __init__(self, arch="amd64", suite=None):
        if arch not in ARCHES:
            raise SystemExit(f"e2e: --arch {arch!r}: one of {', '.join(ARCHES)}")
        suite = suite or ("trixie" if arch == "arm64" else HOST_SUITE)
        if suite not in SUITES:
            raise SystemExit(f"e2e: --suite {suite!r}: one of {', '.join(SUITES)}")
        if arch == "arm64" and suite != "trixie":
            raise SystemExit("e2e: --arch arm64 is Debian 13 only (--suite trixie): its kernel is trixie's 6.12")
        self.arch, self.suite = arch, suite

    @property
    def native(self):
        """The test bed as it was: amd64 with the host's own suite."""
        return self.arch == "amd64" and self.suite == HOST_SUITE

    @property
    def slow(self):
        """How much slower than amd64 under TCG the guest runs (aarch64 emulated on x86_64: about
        3x): scenario time limits are multiplied by it, and guests see it as E2E_SLOW."""
        return 3 if self.arch == "arm64" else 1

    @property
    def console(self):
        return "ttyAMA0" if self.arch == "arm64" else "ttyS0"

    @property
    def qemu(self):
        return "qemu-system-aarch64" if self.arch == "arm64" else "qemu-system-x86_64"

    def __str__(self):
        return f"{self.arch}/{self.suite}"


def mirror_url():
    from .systemd import mirror
    return mirror()


class Apt:
    """apt-get/apt-cache against SUITE main for ARCH only, with its own lists in the cache."""

    def __init__(self, suite, arch):
        self.suite, self.arch = suite, arch
        self.dir = cache.ROOT / "apt" / f"{suite}-{arch}"
        self.opts = ["-o", f"Dir::Etc::SourceList={self.dir}/sources.list", "-o", "Dir::Etc::SourceParts=/nonexistent",
                     "-o", f"Dir::State={self.dir}/state", "-o", f"Dir::State::status={self.dir}/state/status",
                     "-o", f"Dir::Cache={self.dir}/cache", "-o", f"APT::Architecture={arch}",
                     "-o", f"APT::Architectures={arch}", "-o", "Dir::Etc::Preferences=/dev/null",
                     "-o", "Dir::Etc::PreferencesParts=/nonexistent", "-o", "Debug::NoLocking=1"]

    def update(self, max_age=12 * 3600):
        (self.dir / "state/lists/partial").mkdir(parents=True, exist_ok=True)
        (self.dir / "cache/archives/partial").mkdir(parents=True, exist_ok=True)
        (self.dir / "state/status").touch()
        src = f"deb [signed-by={KEYRING}] {mirror_url()} {self.suite} main\n"
        stamp = self.dir / "updated"
        if (self.dir / "sources.list").exists() and (self.dir / "sources.list").read_text() == src \
                and stamp.exists() and time.time() - stamp.stat().st_mtime < max_age:
            return
        (self.dir / "sources.list").write_text(src)
        log(f"apt-get update for {self.suite} {self.arch} (lists in {self.dir})")
        r = subprocess.run(["apt-get", *self.opts, "update"], text=True, capture_output=True)
        if r.returncode != 0 or "W: " in r.stderr and "Failed" in r.stderr:
            raise RuntimeError(f"apt-get update for {self.suite} {self.arch} failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        stamp.touch()

    def cache_cmd(self, *args):
        self.update()
        r = subprocess.run(["apt-cache", *self.opts, *args], text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"apt-cache {' '.join(args)} ({self.suite} {self.arch}) failed:\n{r.stderr}")
        return r.stdout

    def download(self, specs, cwd):
        self.update()
        r = subprocess.run(["apt-get", *self.opts, "download", *specs], cwd=cwd, text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"apt-get download {' '.join(specs)} ({self.suite} {self.arch}) failed:\n{r.stderr}")


def ensure_binfmt(arch):
    """An arm64 root is made (mmdebstrap) and finished (fc-cache in a chroot) by running its
    programs under qemu-user: binfmt_misc must be mounted and know aarch64 ELF files."""
    if arch != "arm64" or os.uname().machine == "aarch64":
        return
    bm = Path("/proc/sys/fs/binfmt_misc")
    if not (bm / "register").exists():
        r = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(bm)], text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"cannot mount binfmt_misc (needed to run arm64 programs under qemu-user): {r.stderr}")
    if (bm / "qemu-aarch64").exists():
        return
    conf = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")
    if not conf.exists():
        raise RuntimeError("qemu-user-static is not installed (no /usr/lib/binfmt.d/qemu-aarch64.conf): "
                           "apt-get install qemu-user-static")
    line = conf.read_text().strip().splitlines()[-1]
    log(f"registering qemu-aarch64 with binfmt_misc ({conf})")
    (bm / "register").write_text(line)
