"""Debian's kernel for the guest: the uncompressed vmlinux, and the few modules the guest
loads (vkms built out of tree, since Debian's config leaves it out).

Inputs: the packages kernel_choice picks (the image `linux-image-amd64` depends on, or the newest
complete older set), and this file.
"""
import lzma
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from . import cache, kernel_choice
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


def apt_ask(opts=()):
    """apt-cache with opts (another suite's lists: target.Apt), for kernel_choice.Answers."""
    def ask(args):
        r = subprocess.run(["apt-cache", *opts, *args], text=True, capture_output=True)
        return r.stdout if r.returncode == 0 else None
    return ask


def cached_debs():
    """(package, version) of every .deb in the cache's debs folder."""
    debs = cache.ROOT / "debs"
    found = []
    for f in debs.glob("*.deb") if debs.is_dir() else ():
        parts = f.name[:-4].split("_")
        if len(parts) == 3:
            found.append((parts[0], parts[1].replace("%3a", ":")))
    return found


def choose_kernel(meta, flavour, with_build, env, opts=(), fetch=None):
    """The kernel set (kernel_choice) for this machine: chosen from apt's lists and the cached
    .debs, downloaded; if a download fails (apt offline), chosen again from the cache alone."""
    pin = None
    override = os.environ.get(env)  # "ABI=VERSION", e.g. when apt is offline
    if override:
        if "=" not in override:
            raise RuntimeError(f"{env}={override!r}: expected ABI=VERSION, e.g. 6.1.0-56-amd64=6.1.192-2")
        pin = tuple(override.split("=", 1))
    answers = kernel_choice.Answers(apt_ask(opts), cached_debs())
    chosen = kernel_choice.choose(answers, meta, flavour, with_build, pin)
    try:
        debs = download(chosen.packages, fetch)
    except RuntimeError as e:
        offline = kernel_choice.Answers(lambda args: None, cached_debs())
        try:
            fallback = kernel_choice.choose(offline, meta, flavour, with_build, pin, hint=chosen.abi)
        except kernel_choice.NoKernelSet:
            raise RuntimeError(f"{e}\nthe set chosen: {chosen.describe()}\nnothing complete is cached either: "
                               f"run `apt-get update` and retry, or set {env}=ABI=VERSION to a set that exists")
        log(f"download failed, using the cached set instead: {fallback.describe()}")
        chosen, debs = fallback, download(fallback.packages, fetch)
    for line in chosen.why:
        log(f"kernel: {line}")
    return chosen, debs


def download(pkgs, fetch=None):
    """The .deb files for pkgs ({package: version}), from the cache or `apt-get download` (fetch:
    another apt's download). Fetched into a temporary folder and moved in whole, so a killed run
    never leaves a truncated .deb under the name of a good one."""
    debs = cache.ROOT / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    found, missing = {}, []
    for p, ver in pkgs.items():
        hits = list(debs.glob(f"{p}_{ver.replace(':', '%3a')}_*.deb"))
        if hits:
            found[p] = hits[0]
        else:
            missing.append(p)
    if missing:
        specs = [f"{p}={pkgs[p]}" for p in missing]
        log(f"apt-get download {' '.join(specs)}")
        tmp = debs / f".tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        try:
            if fetch:
                fetch(specs, tmp)
            else:
                r = subprocess.run(["apt-get", "download", *specs], cwd=tmp, text=True, capture_output=True)
                if r.returncode != 0:
                    raise RuntimeError(f"apt-get download failed (apt offline, or lists old: run `apt-get update`):\n{r.stderr.strip()}")
            for p in missing:
                got = list(tmp.glob(f"{p}_{pkgs[p].replace(':', '%3a')}_*.deb"))
                if not got:
                    raise RuntimeError(f"apt-get download left no {p} {pkgs[p]}")
                found[p] = debs / got[0].name
                got[0].rename(found[p])
                for old in debs.glob(f"{p}_*.deb"):  # older versions of the same package
                    if old != found[p]:
                        old.unlink()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
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


def build(out, chosen, debs):
    abi, ver = chosen.abi, chosen.version
    series = ".".join(abi.split(".")[:2])  # 6.1
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
    (out / "packages").write_text("".join(f"{p} {v}\n" for p, v in chosen.packages.items()))
    shutil.rmtree(work)


def kernel():
    """The cache entry with vmlinux, modules/ (a root tree), modules.load, abi."""
    chosen, debs = choose_kernel("linux-image-amd64", "amd64", True, "KIOSK_E2E_KERNEL")
    key = cache.key_of(chosen.key(), Path(__file__))
    return cache.entry("kernel", key, lambda out: build(out, chosen, debs),
                       f"kernel {chosen.abi} ({chosen.version}) + vkms")
