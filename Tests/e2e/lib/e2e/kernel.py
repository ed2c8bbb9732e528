"""Debian's kernel for the guest: the uncompressed vmlinux, and the few modules the guest
loads (vkms built out of tree, since Debian's config leaves it out).

Inputs: the version of `linux-image-amd64`'s dependency in apt, and this file.
"""
import lzma
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

from . import cache
from .cache import log

# Loaded by the guest in this order (modprobe --show-depends adds the dependencies).
MODULES = ["drm", "drm_kms_helper", "drm_shmem_helper", "vkms", "evdev", "uinput",
           "virtio_pci", "virtio_blk", "virtio_console",  # virtio_console: the host's agent channel
           "virtio_net",  # the card of `e2e-net: ssh` scenarios
           "snd_aloop"]  # a sound card whose playback comes back as capture (scenario speech)
# Only the systemd mode's stage 1 needs these (root filesystem on a virtio disk).
ROOTFS_MODULES = ["crc32c_generic", "ext4"]


def run(cmd, **kw):
    r = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"`{' '.join(map(str, cmd))}` failed ({r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.stdout


def apt_kernel():
    """(abi, package version) of the kernel apt would install, e.g. ('6.1.0-56-amd64', '6.1.192-2')."""
    try:
        deps = run(["apt-cache", "depends", "linux-image-amd64"])
    except RuntimeError as e:
        raise RuntimeError(f"{e}\n(no apt lists? run `apt-get update`, or set KIOSK_E2E_KERNEL=ABI=VERSION)")
    m = re.search(r"Depends: linux-image-(\S+)", deps)
    if not m:
        raise RuntimeError(f"cannot find the kernel in `apt-cache depends linux-image-amd64`:\n{deps}")
    abi = m.group(1)
    policy = run(["apt-cache", "policy", f"linux-image-{abi}"])
    ver = re.search(r"Candidate: (\S+)", policy).group(1)
    return abi, ver


def download(pkgs, ver):
    """The .deb files for pkgs at version ver, from the cache or `apt-get download`."""
    debs = cache.ROOT / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    qver = ver.replace(":", "%3a")
    found, missing = {}, []
    for p in pkgs:
        hits = list(debs.glob(f"{p}_{qver}_*.deb"))
        if hits:
            found[p] = hits[0]
        else:
            missing.append(p)
    if missing:
        log(f"apt-get download {' '.join(missing)}")
        r = subprocess.run(["apt-get", "download", *[f"{p}={ver}" for p in missing]],
                           cwd=debs, text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"apt-get download failed (run `apt-get update`?):\n{r.stderr}")
        for p in missing:
            found[p] = next(debs.glob(f"{p}_{qver}_*.deb"))
            for old in debs.glob(f"{p}_*.deb"):  # older versions of the same package
                if old != found[p]:
                    old.unlink()
    return found


def extract_vmlinux(vmlinuz, out):
    """The ELF inside a bzImage: the guest skips its (slow under TCG) xz decompression."""
    data = vmlinuz.read_bytes()
    start = data.find(b"\xfd7zXZ\x00")
    if start < 0:
        raise RuntimeError(f"{vmlinuz}: no xz payload found")
    elf = lzma.LZMADecompressor().decompress(data[start:])
    if not elf.startswith(b"\x7fELF"):
        raise RuntimeError(f"{vmlinuz}: xz payload is not an ELF")
    out.write_bytes(elf)


def build_vkms(abi, series, debs, work):
    """vkms.ko from linux-source, against the unpacked headers and kbuild."""
    root = work / "src"
    for p in (f"linux-headers-{abi}", f"linux-headers-{abi.rsplit('-', 1)[0]}-common",
              f"linux-kbuild-{series}", f"linux-source-{series}"):
        run(["dpkg", "-x", str(debs[p]), str(root)])
    headers = root / "usr/src" / f"linux-headers-{abi}"
    mk = headers / "Makefile"
    mk.write_text(mk.read_text().replace("/usr/src/", f"{root}/usr/src/"))
    vkms = work / "vkms"
    member = f"linux-source-{series}/drivers/gpu/drm/vkms/"
    with tarfile.open(root / "usr/src" / f"linux-source-{series}.tar.xz") as tar:
        for m in tar:  # one pass over the xz stream; the folder is small
            if m.name.startswith(member) and m.isfile():
                vkms.mkdir(exist_ok=True)
                (vkms / Path(m.name).name).write_bytes(tar.extractfile(m).read())
    if not vkms.is_dir():
        raise RuntimeError(f"{member} not found in linux-source-{series}")
    r = subprocess.run(["make", "-C", str(headers), f"M={vkms}", "CONFIG_DRM_VKMS=m",
                        f"-j{os.cpu_count()}", "modules"], text=True, capture_output=True)
    if r.returncode != 0 or not (vkms / "vkms.ko").exists():
        raise RuntimeError(f"building vkms.ko failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return vkms / "vkms.ko"


def keep_modules(full, out, abi, modules, rootfs_modules):
    """Copies only the modules the guests load (`modules`, and `rootfs_modules` for the systemd
    mode's stage 1) from the unpacked package `full` into out/modules with a modules.dep of their
    own, and writes the load order of each list to out/modules.load and out/modules-rootfs.load."""
    mods = out / "modules"
    lists = {"modules.load": module_order(full, abi, modules),
             "modules-rootfs.load": module_order(full, abi, rootfs_modules)}
    for rels in lists.values():
        for rel in rels:
            dst = mods / "lib/modules" / abi / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(full / "lib/modules" / abi / rel, dst)
    for f in ("modules.builtin", "modules.builtin.modinfo", "modules.order"):
        shutil.copy(full / "lib/modules" / abi / f, mods / "lib/modules" / abi / f)
    run(["depmod", "-b", str(mods), abi])
    for name, rels in lists.items():
        (out / name).write_text("".join(f"/lib/modules/{abi}/{r}\n" for r in rels))


def module_order(full, abi, names):
    """Module files, dependencies first, for insmod in the guest (relative to lib/modules/abi)."""
    order = []
    base = full / "lib/modules" / abi
    for name in names:
        out = run(["modprobe", "-d", str(full), "-S", abi, "--show-depends", name])
        for line in out.splitlines():
            if line.startswith("insmod "):
                rel = str(Path(line.split()[1]).relative_to(base))
                if rel not in order:
                    order.append(rel)
    return order


def build(out, abi, ver):
    series = ".".join(abi.split(".")[:2])  # 6.1
    pkgs = [f"linux-image-{abi}", f"linux-headers-{abi}", f"linux-headers-{abi.rsplit('-', 1)[0]}-common",
            f"linux-kbuild-{series}", f"linux-source-{series}"]
    debs = download(pkgs, ver)
    work = out / "work"
    full = work / "image"
    full.mkdir(parents=True)
    run(["dpkg", "-x", str(debs[f"linux-image-{abi}"]), str(full)])
    extract_vmlinux(full / "boot" / f"vmlinuz-{abi}", out / "vmlinux")
    shutil.copy(full / "boot" / f"config-{abi}", out / "config")
    extra = full / "lib/modules" / abi / "extra"
    extra.mkdir()
    shutil.copy(build_vkms(abi, series, debs, work), extra / "vkms.ko")
    run(["depmod", "-b", str(full), abi])
    keep_modules(full, out, abi, MODULES, ROOTFS_MODULES)
    (out / "abi").write_text(abi + "\n")
    (out / "version").write_text(ver + "\n")
    shutil.rmtree(work)


def kernel():
    """The cache entry with vmlinux, modules/ (a root tree), modules.load, abi."""
    override = os.environ.get("KIOSK_E2E_KERNEL")  # "ABI=VERSION", e.g. when apt is offline
    abi, ver = override.split("=", 1) if override else apt_kernel()
    key = cache.key_of(abi, ver, Path(__file__))
    return cache.entry("kernel", key, lambda out: build(out, abi, ver), f"kernel {abi} ({ver}) + vkms")
