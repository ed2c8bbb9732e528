"""Debian 13's arm64 kernel for the arm64 guest: the unpacked Image and the few modules the
guests load (virtio-gpu is the display: Debian's arm64 kernel has it as a module, and no vkms).
Kept apart from kernel.py so that the amd64 kernel's cache key (which hashes kernel.py) stays
what it was.

Inputs: the image kernel_choice picks in trixie's lists (target.Apt), and this file.
"""
import lzma
import shutil
from pathlib import Path

from . import cache
from .cache import log
from .kernel import choose_kernel, kernel, keep_modules, run


# arm64 (Debian 13): virtio-gpu is the display (built into Debian's arm64 kernel; there is no
# vkms there), the rest as on amd64.
ARM64_MODULES = ["virtio_gpu", "evdev", "uinput", "virtio_pci", "virtio_blk", "virtio_console", "virtio_net"]
ARM64_ROOTFS_MODULES = ["crc32c_generic", "ext4"]


def build_arm64(out, chosen, debs):
    import gzip
    abi, ver = chosen.abi, chosen.version
    work = out / "work"
    full = work / "image"
    full.mkdir(parents=True)
    run(["dpkg", "-x", str(debs[f"linux-image-{abi}"]), str(full)])
    data = (full / "boot" / f"vmlinuz-{abi}").read_bytes()
    # Debian's arm64 vmlinuz is a gzipped Image: unpacked here once, not by qemu at each boot.
    image = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    if image[56:60] != b"ARM\x64":
        raise RuntimeError(f"vmlinuz-{abi}: not an arm64 Image (no ARM\\x64 magic)")
    (out / "vmlinux").write_bytes(image)
    shutil.copy(full / "boot" / f"config-{abi}", out / "config")
    config = (out / "config").read_text()
    if "CONFIG_DRM_VIRTIO_GPU=y" not in config and "CONFIG_DRM_VIRTIO_GPU=m" not in config:
        raise RuntimeError(f"{pkg}: no virtio-gpu in its config")
    # Debian 13 is usr-merged (usr/lib/modules) and xz-compresses its modules: moved to
    # lib/modules and unpacked, so any insmod (busybox's in stage 1) loads them.
    if (full / "usr/lib/modules").is_dir() and not (full / "lib/modules").exists():
        (full / "lib").mkdir(exist_ok=True)
        shutil.move(str(full / "usr/lib/modules"), str(full / "lib/modules"))
    for xz in (full / "lib/modules" / abi).rglob("*.ko.xz"):
        xz.with_suffix("").write_bytes(lzma.decompress(xz.read_bytes()))
        xz.unlink()
    run(["depmod", "-b", str(full), abi])
    keep_modules(full, out, abi, ARM64_MODULES, ARM64_ROOTFS_MODULES)
    (out / "abi").write_text(abi + "\n")
    (out / "version").write_text(ver + "\n")
    (out / "packages").write_text("".join(f"{p} {v}\n" for p, v in chosen.packages.items()))
    shutil.rmtree(work)


def kernel_for(target):
    """The kernel entry for a target: Debian 12's amd64 kernel with vkms for every amd64 suite,
    Debian 13's arm64 kernel for arm64."""
    if target.arch == "amd64":
        return kernel()
    from .target import Apt
    apt = Apt(target.suite, "arm64")
    try:
        apt.update()
    except RuntimeError as e:  # offline: the lists of before, or the cached .debs, still choose
        log(f"warning: {e}")
    chosen, debs = choose_kernel("linux-image-arm64", "arm64", False, "KIOSK_E2E_KERNEL_ARM64",
                                 opts=apt.opts, fetch=apt.download)
    key = cache.key_of("arm64", chosen.key(), Path(__file__), Path(__file__).with_name("kernel.py"))
    return cache.entry("kernel-arm64", key, lambda out: build_arm64(out, chosen, debs),
                       f"kernel {chosen.abi} ({chosen.version}, {target.suite} arm64)")
