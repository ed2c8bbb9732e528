"""The systemd-mode guest: Debian bookworm (debootstrap, minbase) with systemd as PID 1; for
another target (target.py: Debian 13 on amd64 or arm64) the root is made by mmdebstrap, and on
arm64 a second image of the same root serves fast mode (guest/init instead of systemd).

Cached: the debootstrap tree (inputs: suite, mirror, packages), the ext4 image made from it
with the kernel's modules and the scenario unit (inputs: that + kernel + guest files), and a
small stage-1 initramfs. Per run: the payload archive appended to stage 1, which copies it
into the root; the root disk is a qemu snapshot, so the cached image is never written.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

from . import cache, rootfs
from .cache import log
from .initramfs import FONT_PACKAGES, FONTCONFIG_ENV, GUEST, package_files
from .rootfs import put

SUITE = "bookworm"
PACKAGES = ["systemd", "systemd-sysv", "udev", "libdrm2", "libinput10", "kmod", "libfreetype6",
            "libpng16-16", "libharfbuzz0b", "libfribidi0", "libfontconfig1",
            # SVG and named icons: librsvg (cairo, GLib) and the icon theme the example names.
            "librsvg2-2", "adwaita-icon-theme",
            # Speech: libespeak-ng (its data) and libasound; alsa-utils' arecord captures what the
            # kiosk says on the other side of snd-aloop (scenario speech).
            "libespeak-ng1", "espeak-ng-data", "libasound2", "alsa-utils",
            # MQTT (`[mqtt]`): libmosquitto, which the .deb depends on; a broker and its clients for
            # scenarios that want one (the broker's unit masked below; such a scenario starts it).
            "libmosquitto1", "mosquitto", "mosquitto-clients",
            # The fonts a device gets (scripts/apt-packages.txt); fontconfig's package caches them.
            "fonts-dejavu-core", "fonts-noto-core", "fonts-wqy-microhei", "fonts-noto-color-emoji", "fontconfig",
            "dbus",  # dbus: systemd-run, logind, as on a real device
            # polkit 122 (JS rules): whether logind lets the kiosk user power off. polkitd
            # depends on default-logind, a virtual package debootstrap cannot resolve: named.
            "polkitd", "libpam-systemd",
            # Fleet management (scenario fleet-ansible): sshd and Python for Ansible (python3-apt
            # for its apt module), and node_exporter, whose textfile collector serves the
            # kiosk's metrics_file. Masked below; a scenario that wants them starts them.
            "openssh-server", "python3", "python3-apt", "prometheus-node-exporter"]
IMAGE_MB = 1024
# Units that only slow a test boot down or write over the serial console.
MASKED = ["serial-getty@ttyS0.service", "apt-daily.timer", "apt-daily-upgrade.timer",
          "e2scrub_all.timer", "fstrim.timer", "systemd-timesyncd.service",
          "ssh.service", "ssh.socket", "prometheus-node-exporter.service", "mosquitto.service",
          "e2scrub_reap.service", "dpkg-db-backup.timer", "systemd-tmpfiles-clean.timer"]
# Generators systemd runs at boot and at every daemon-reload: each one is an exec costing about
# 0.4 s under TCG, and together most of a reload's 5 s (a scenario reloads up to nine times).
# Only these do anything for a test guest (the root from /etc/fstab, the consoles, systemd.mask=
# on the command line); the rest (gpt-auto, sysv, cryptsetup, veritysetup, hibernate, rc-local,
# ssh, tpm2, ...) are masked by whatever name the root's systemd has them.
GENERATORS_KEPT = {"systemd-fstab-generator", "systemd-getty-generator", "systemd-debug-generator"}


def mirror():
    """The Debian mirror apt uses here (deb822 or one-line sources)."""
    for f in sorted(Path("/etc/apt").glob("sources.list*")) + sorted(Path("/etc/apt/sources.list.d").glob("*")):
        if not f.is_file():
            continue
        text = f.read_text(errors="replace")
        m = re.search(r"^URIs:\s*(\S+/debian)/?\s*$", text, re.M) or re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)/?\s+" + SUITE, text, re.M)
        if m:
            return m.group(1)
    return "http://deb.debian.org/debian"


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], text=True, capture_output=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"`{' '.join(map(str, cmd))}` failed ({r.returncode}):\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r.stdout


# What changes for Debian 13: the 64-bit time_t transition renamed libpng16-16 and libasound2.
TRIXIE_RENAMES = {"libpng16-16": "libpng16-16t64", "libasound2": "libasound2t64"}
# Left out of the arm64 root: only fleet-ansible (amd64) uses them, and every package costs
# minutes when mmdebstrap configures it under qemu-user.
ARM64_SKIP = {"openssh-server", "python3", "python3-apt", "prometheus-node-exporter"}


def packages(target):
    pkgs = [TRIXIE_RENAMES.get(p, p) if target.suite == "trixie" else p for p in PACKAGES]
    if target.arch == "arm64":
        pkgs = [p for p in pkgs if p not in ARM64_SKIP]
    return pkgs


def root_tree(target):
    """The root tree for target: bookworm amd64 by debootstrap as before, others by mmdebstrap."""
    if target.native:
        return debootstrap_tree()
    url = mirror()
    pkgs = packages(target)
    key = cache.key_of("mmdebstrap", target.suite, target.arch, url, " ".join(pkgs))

    def build(out):
        if not shutil.which("mmdebstrap"):
            raise RuntimeError("mmdebstrap is not installed (run scripts/install-deps)")
        from .target import ensure_binfmt
        ensure_binfmt(target.arch)
        log(f"mmdebstrap {target.suite} {target.arch} from {url} (minutes; more under qemu-user)")
        run(["mmdebstrap", "--quiet", "--variant=minbase", f"--architectures={target.arch}",
             f"--include={','.join(pkgs)}", "--customize-hook=chroot \"$1\" apt-get clean",
             target.suite, out / "root", f"deb {url} {target.suite} main"])

    return cache.entry(f"mmdebstrap-{target.suite}-{target.arch}", key, build,
                       f"mmdebstrap {target.suite} {target.arch}") / "root"


def debootstrap_tree():
    url = mirror()
    key = cache.key_of(SUITE, url, " ".join(PACKAGES))

    def build(out):
        if not shutil.which("debootstrap"):
            raise RuntimeError("debootstrap is not installed (run scripts/install-deps)")
        log(f"debootstrap {SUITE} from {url} (about a minute)")
        run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE, out / "root", url])

    return cache.entry("debootstrap", key, build, f"debootstrap {SUITE}") / "root"


def build_image(out, tree, kern, target=None, fast=False):
    """fast: the arm64 image fast mode boots (guest/init as PID 1): modules.load for init, the
    user kiosk in video/input/render, and the host's fonts and fontconfig setup (as the fast
    mode's initramfs has them) so that its screenshots compare with the host's renders."""
    console = target.console if target else "ttyS0"
    if target is not None:
        from .target import ensure_binfmt
        ensure_binfmt(target.arch)  # fc-cache, useradd, groupmod run in the root (qemu-user on arm64)
    root = out / "root"
    # A copy, since the cached tree must stay pristine; cp -a keeps owners and device nodes.
    run(["cp", "-a", tree, root])
    shutil.copytree(kern / "modules", root, dirs_exist_ok=True, symlinks=True)
    mods = " ".join(Path(l).stem for l in (kern / "modules.load").read_text().split())
    (root / "etc/modules-load.d/kiosk-e2e.conf").write_text("\n".join(mods.split()) + "\n")
    shutil.copy(GUEST / "99-kiosk-e2e-hotplug.rules", root / "etc/udev/rules.d/")
    units = root / "etc/systemd/system"
    (units / "kiosk-e2e.service").write_text((GUEST / "kiosk-e2e.service").read_text().replace("ttyS0", console))
    shutil.copy(GUEST / "kiosk-e2e-agent.service", units / "kiosk-e2e-agent.service")
    (units / "multi-user.target.wants").mkdir(exist_ok=True)
    os.symlink("/etc/systemd/system/kiosk-e2e.service", units / "multi-user.target.wants/kiosk-e2e.service")
    (units / "sysinit.target.wants").mkdir(exist_ok=True)
    os.symlink("/etc/systemd/system/kiosk-e2e-agent.service", units / "sysinit.target.wants/kiosk-e2e-agent.service")
    for u in [m.replace("ttyS0", console) for m in MASKED]:
        link = units / u
        if link.exists() or link.is_symlink():
            link.unlink()
        os.symlink("/dev/null", link)
    generators = root / "etc/systemd/system-generators"
    generators.mkdir(parents=True, exist_ok=True)
    names = {g.name for d in ("lib", "usr/lib") for g in (root / d / "systemd/system-generators").glob("*")}
    for name in sorted(names - GENERATORS_KEPT):
        os.symlink("/dev/null", generators / name)
    # No package lists (the guest has no network; the packages it installs are .debs whose
    # dependencies are in the root): python-apt's cache of bookworm's 50 MB of lists took 8-16 s
    # to open under TCG in every Ansible apt task (fleet-ansible), and the image is 170 MB smaller.
    for f in [*(root / "var/lib/apt/lists").glob("*"), *(root / "var/cache/apt").glob("*.bin")]:
        if f.is_file():
            f.unlink()
    (root / "etc/fstab").write_text("/dev/vdb / ext4 rw 0 1\ndebugfs /sys/kernel/debug debugfs defaults 0 0\n")
    (root / "etc/hostname").write_text("kiosk-e2e\n")
    jd = root / "etc/systemd/journald.conf.d"
    jd.mkdir(parents=True, exist_ok=True)
    (jd / "kiosk-e2e.conf").write_text("[Journal]\nStorage=volatile\n")
    (root / "results").mkdir()
    if fast:
        (root / "etc/kiosk-e2e").mkdir(parents=True, exist_ok=True)
        shutil.copy(kern / "modules.load", root / "etc/kiosk-e2e/modules.load")
        # The fast mode's fixed ids (initramfs.GROUP): input 101, render 102 (video is 44 already).
        for name, gid in (("input", 101), ("render", 102)):
            free_gid(root, gid, keep=name)
            run(["chroot", root, "groupmod", "--gid", str(gid), name])
        run(["chroot", root, "useradd", "--uid", "1000", "--user-group", "--groups", "video,input,render",
             "--home-dir", "/run", "--no-create-home", "--shell", "/bin/sh", "kiosk"])
        host_fonts(root)
    warm_fontconfig_cache(root)
    # The image is made from the tree directly: no loop device, no mount.
    run(["mkfs.ext4", "-q", "-F", "-L", "kiosk-root", "-d", root, out / "root.ext4", f"{IMAGE_MB}M"])
    run(["rm", "-rf", root])


def free_gid(root, gid, keep):
    """Moves whichever group other than `keep` holds `gid` (a package's system group, such as
    mosquitto's) to an unused system id, with its files, so that `keep` can take `gid`."""
    groups = [line.split(":") for line in (root / "etc/group").read_text().splitlines() if line.count(":") >= 3]
    holder = next((g[0] for g in groups if g[2] == str(gid) and g[0] != keep), None)
    if holder is None:
        return
    used = {int(g[2]) for g in groups if g[2].isdigit()}
    new = next(n for n in range(999, 100, -1) if n not in used)
    run(["chroot", root, "groupmod", "--gid", str(new), holder])
    for top, dirs, files in os.walk(root):
        for f in dirs + files:
            path = os.path.join(top, f)
            st = os.lstat(path)
            if st.st_gid == gid:
                os.lchown(path, -1, new)


def host_fonts(root):
    """The host's font files and fontconfig setup in place of the root's own (fast mode)."""
    for d in ("usr/share/fonts", "etc/fonts", "usr/share/fontconfig", "var/cache/fontconfig"):
        shutil.rmtree(root / d, ignore_errors=True)
    for f in package_files(FONT_PACKAGES):
        if str(f).startswith("/usr/share/fonts/"):
            rootfs.put(root, f)
    shutil.copytree("/etc/fonts", root / "etc/fonts", symlinks=True)
    shutil.copytree("/usr/share/fontconfig", root / "usr/share/fontconfig", symlinks=True)
    (root / "var/cache/fontconfig").mkdir(parents=True)


def warm_fontconfig_cache(root):
    """fontconfig trusts a font directory's cache only while the directory's mtime, nanoseconds
    included, is the one recorded in it; mkfs.ext4 -d keeps whole seconds. So: whole seconds
    first, then the image's own fc-cache, as a device image must (else every start of the
    kiosk scans the fonts again, and as its user says "No writable cache directories")."""
    # The system font directories of Debian's /etc/fonts/fonts.conf (fontconfig-config creates
    # the empty /usr/local/share/fonts; its cache is checked too).
    for top in (root / "usr/share/fonts", root / "usr/local/share/fonts"):
        for d in [top, *(p for p in top.rglob("*") if p.is_dir())] if top.is_dir() else []:
            t = int(d.stat().st_mtime)
            os.utime(d, (t, t))
    env = {k: v for k, v in os.environ.items() if k not in FONTCONFIG_ENV}
    run(["chroot", root, "fc-cache", "--system-only"], env=env)


def image(kern, target=None, fast=False):
    if target is None or target.native:
        tree = debootstrap_tree()
        key = cache.key_of(tree.parent.name, kern.name, Path(__file__), GUEST / "kiosk-e2e.service",
                           GUEST / "kiosk-e2e-agent.service", GUEST / "99-kiosk-e2e-hotplug.rules")
        return cache.entry("rootfs", key, lambda out: build_image(out, tree, kern), "systemd root image") / "root.ext4"
    t = root_tree(target)
    extra = ()
    if fast:
        from .initramfs import fontconfig_setup, host_versions
        extra = (host_versions(), fontconfig_setup())
    key = cache.key_of(t.parent.name, kern.name, target.console, fast, *extra, Path(__file__), GUEST / "kiosk-e2e.service",
                       GUEST / "kiosk-e2e-agent.service", GUEST / "99-kiosk-e2e-hotplug.rules")
    kind = f"rootfs-{'fast-' if fast else ''}{target.suite}-{target.arch}"
    what = f"{target} root image{' for fast mode' if fast else ''}"
    return cache.entry(kind, key, lambda out: build_image(out, t, kern, target, fast), what) / "root.ext4"


def arm64_busybox(target, out):
    """busybox-static for arm64 from the target's suite (apt download, dpkg -x), and its version."""
    from .target import Apt
    apt = Apt(target.suite, "arm64")
    ver = re.search(r"Candidate: (\S+)", apt.cache_cmd("policy", "busybox-static")).group(1)
    if out is None:
        return None, ver
    apt.download([f"busybox-static={ver}"], out)
    deb = next(out.glob("busybox-static_*.deb"))
    run(["dpkg", "-x", deb, out / "bb"])
    return next(p for p in (out / "bb/usr/bin/busybox", out / "bb/bin/busybox") if p.exists()), ver


def build_stage1(out, kern, target=None):
    root = out / "root"
    rootfs.make_merged_links(root)
    for d in ("proc", "sys", "dev", "etc/kiosk-e2e"):
        (root / d).mkdir(parents=True, exist_ok=True)
    if target is not None and target.arch == "arm64":
        bb, _ = arm64_busybox(target, out)
        busybox = put(root, bb, "/bin/busybox")
        applets = run(["qemu-aarch64-static", busybox, "--list-full"]).split()
    else:
        busybox = put(root, "/bin/busybox")
        applets = run([busybox, "--list-full"]).split()
    for a in applets:
        link = root / rootfs.guest_path("/" + a)
        if not link.exists() and not link.is_symlink():
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink("/bin/busybox", link)
    # virtio's transport and disk modules (not virtio-gpu, under drivers/gpu/drm/virtio/ on arm64).
    wanted = [l for l in (kern / "modules.load").read_text().split()
              if ("/virtio/" in l or "/block/virtio" in l) and "/gpu/" not in l]
    wanted += (kern / "modules-rootfs.load").read_text().split()
    for m in wanted:
        put(root, kern / "modules" / m.lstrip("/"), m)
    (root / "etc/kiosk-e2e/stage1-modules.load").write_text("\n".join(wanted) + "\n")
    rootfs.write_cpio(root, out / "stage1.cpio")
    shutil.rmtree(root)
    for p in ("bb", *(f.name for f in out.glob("busybox-static_*.deb"))):
        run(["rm", "-rf", out / p])


def stage1(kern, target=None):
    if target is not None and target.arch == "arm64":
        key = cache.key_of(kern.name, Path(__file__), Path(rootfs.__file__), arm64_busybox(target, None)[1])
        return cache.entry("stage1-arm64", key, lambda out: build_stage1(out, kern, target),
                           "stage-1 initramfs (arm64)") / "stage1.cpio"
    key = cache.key_of(kern.name, Path(__file__), Path(rootfs.__file__),
                       subprocess.run(["dpkg-query", "-W", "busybox-static"], text=True, capture_output=True).stdout)
    return cache.entry("stage1", key, lambda out: build_stage1(out, kern), "stage-1 initramfs") / "stage1.cpio"
