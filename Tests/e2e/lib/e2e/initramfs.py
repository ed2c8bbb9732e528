"""The fast-mode guest: a busybox initramfs in two archives the kernel unpacks in turn.

base.cpio (cached): busybox, the kernel modules, udev with its rules, libinput's data, the
device's fonts with fontconfig's configuration and a warm fontconfig cache.
payload.cpio (every run, small): /init, the scenario, and the caller's binaries with
their libraries. Keeping them apart means a new kiosk binary never rebuilds the base.
"""
import fnmatch
import os
import shutil
import subprocess
from pathlib import Path

from . import cache, rootfs
from .rootfs import put, put_tree, put_with_libraries

GUEST = cache.E2E_DIR / "guest"
# The fonts a device gets (scripts/apt-packages.txt) and fontconfig's configuration: the guest's
# fontconfig must make the same choices as the host's, which renders the reference images.
FONT_PACKAGES = ["fonts-dejavu-core", "fonts-noto-core", "fonts-wqy-microhei", "fonts-noto-color-emoji"]
FONTCONFIG_PACKAGES = ["fontconfig", "fontconfig-config"]
# The icon themes the example config names its icons from (a device's .deb depends on
# adwaita-icon-theme): their index.theme files and scalable/symbolic SVGs, not the PNG sizes.
ICON_PACKAGES = ["adwaita-icon-theme", "hicolor-icon-theme"]
ICONS = ["/usr/share/icons/*/index.theme", "/usr/share/icons/*/scalable/*.svg", "/usr/share/icons/*/symbolic/*.svg"]
# A broker and its clients for the mqtt scenario (Debian's mosquitto, as a house would run it).
MQTT_PACKAGES = ["mosquitto", "mosquitto-clients"]
MQTT_PROGRAMS = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub"]
# Libraries the kiosk opens itself, only when a config needs them (librsvg, cairo and GLib for SVG
# icons: Sources/CRsvg): `ldd kiosk` does not list them, so the base carries them and theirs.
OPENED_LIBRARIES = ["librsvg-2.so.2", "libcairo.so.2", "libgobject-2.0.so.0", "libglib-2.0.so.0"]


def host_library(soname):
    """Where this machine's dynamic loader finds soname (ldconfig's cache, this architecture)."""
    cache = subprocess.run(["ldconfig", "-p"], check=True, text=True, capture_output=True).stdout
    for line in cache.splitlines():
        name, _, path = line.strip().partition(" => ")
        if name.split(" (")[0] == soname and "x86-64" in name:
            return path
    raise RuntimeError(f"{soname} is not installed here (scripts/apt-packages.txt: librsvg2-dev)")
HOST_PACKAGES = ["busybox-static", "udev", "libinput-bin", "libc6", *FONT_PACKAGES, *FONTCONFIG_PACKAGES, *ICON_PACKAGES,
                 *MQTT_PACKAGES]
# Which of those packages' font files go into the guest (shell patterns on the path); every
# other file is left out. All of them: fontconfig then chooses among exactly a device's fonts.
FONTS = ["/usr/share/fonts/*"]
# Variables that change what fontconfig reads or the times it writes into a cache.
FONTCONFIG_ENV = ("SOURCE_DATE_EPOCH", "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT")

# A fixed passwd/group (not the host's) so the image only changes when this file does;
# `kiosk` is the unprivileged user the service will run as.
PASSWD = "root:x:0:0:root:/root:/bin/sh\nkiosk:x:1000:1000:kiosk:/run:/bin/sh\n"
# Every group udev's rules name, so /dev/dri/* and /dev/input/* get their real owners.
GROUP = ("root:x:0:\ntty:x:5:\ndisk:x:6:\nlp:x:7:\nkmem:x:15:\ndialout:x:20:\ncdrom:x:24:\nfloppy:x:25:\n"
         "tape:x:26:\naudio:x:29:\nvideo:x:44:kiosk\ninput:x:101:kiosk\nrender:x:102:kiosk\nkvm:x:103:\n"
         "sgx:x:104:\nkiosk:x:1000:\n")


def host_versions():
    r = subprocess.run(["dpkg-query", "-W", *HOST_PACKAGES], text=True, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f"host packages missing (run scripts/install-deps):\n{r.stderr}")
    return r.stdout


def fontconfig_setup():
    """/etc/fonts as configured here (its conf.d links are set by debconf, not by a package
    version): names, link targets and contents, for the cache key."""
    parts = []
    for p in sorted(Path("/etc/fonts").rglob("*")):
        if p.is_symlink():
            parts.append(f"{p} -> {os.readlink(p)}")
        elif p.is_file():
            parts.append(f"{p}\n{p.read_text(errors='replace')}")
    return "\n".join(parts)


def build_base(out, kern):
    root = out / "root"
    rootfs.make_merged_links(root)
    for d in ("proc", "sys", "dev", "run", "tmp", "results", "etc", "root", "var"):
        (root / d).mkdir(exist_ok=True)
    busybox = put(root, "/bin/busybox")
    applets = subprocess.run([str(busybox), "--list-full"], check=True, text=True,
                             capture_output=True).stdout.split()
    for a in applets:  # links made here rather than by `busybox --install` at every boot
        link = root / rootfs.guest_path("/" + a)
        if not link.exists() and not link.is_symlink():
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink("/bin/busybox", link)
    # udev: the daemon is udevadm under another name; rules and helpers, not the 10 MB hwdb.
    put_with_libraries(root, "/bin/udevadm")
    (root / "usr/lib/systemd").mkdir(parents=True, exist_ok=True)
    os.symlink("/bin/udevadm", root / "usr/lib/systemd/systemd-udevd")
    for p in sorted(Path("/lib/udev").iterdir()):
        if p.name in ("hwdb.bin", "hwdb.d"):
            continue
        if p.is_dir():
            put_tree(root, p)
        elif rootfs.is_elf(p):
            put_with_libraries(root, p)
        else:
            put(root, p)
    put(root, GUEST / "99-kiosk-e2e-hotplug.rules", "/etc/udev/rules.d/99-kiosk-e2e-hotplug.rules")
    put_tree(root, "/usr/share/libinput")
    for program in MQTT_PROGRAMS:
        put_with_libraries(root, program)
    for soname in OPENED_LIBRARIES:
        put_with_libraries(root, host_library(soname))
    put_fonts(root)
    for f in package_files(ICON_PACKAGES):
        if any(fnmatch.fnmatch(str(f), p) for p in ICONS):
            put(root, f)
    shutil.copytree(kern / "modules", root, dirs_exist_ok=True, symlinks=True)
    (root / "etc/kiosk-e2e").mkdir(parents=True)
    shutil.copy(kern / "modules.load", root / "etc/kiosk-e2e/modules.load")
    (root / "etc/passwd").write_text(PASSWD)
    (root / "etc/group").write_text(GROUP)
    rootfs.write_cpio(root, out / "base.cpio")
    shutil.rmtree(root)


def package_files(packages):
    """The regular files dpkg lists for packages (links and directories left out)."""
    out = subprocess.run(["dpkg-query", "-L", *packages], check=True, text=True, capture_output=True).stdout
    return sorted({Path(l) for l in out.splitlines() if l.startswith("/") and Path(l).is_file()
                   and not Path(l).is_symlink()})


def put_fonts(root):
    """The FONTS of FONT_PACKAGES, fontconfig's configuration as installed here (/etc/fonts with
    its conf.d links, /usr/share/fontconfig) and a cache that is valid in the guest, so that
    fontconfig neither rescans the fonts nor looks for a writable cache directory there."""
    for f in package_files(FONT_PACKAGES):
        if any(fnmatch.fnmatch(str(f), p) for p in FONTS):
            put(root, f)
    shutil.copytree("/etc/fonts", root / "etc/fonts", symlinks=True)
    shutil.copytree("/usr/share/fontconfig", root / "usr/share/fontconfig", symlinks=True)
    # fontconfig trusts a directory's cache only while the directory's mtime, nanoseconds
    # included, is what it was when the cache was written. The kernel gives unpacked
    # directories the archive's mtime in whole seconds: so whole seconds here too (the host
    # directory's), before fc-cache writes the cache, and nothing may touch them afterwards.
    fonts = root / "usr/share/fonts"
    for d in sorted(p for p in fonts.rglob("*") if p.is_dir()) + [fonts]:
        host_dir = Path("/") / d.relative_to(root)
        t = int(host_dir.stat().st_mtime)
        os.utime(d, (t, t))
    (root / "var/cache/fontconfig").mkdir(parents=True, exist_ok=True)
    # --sysroot: fonts and configuration from the guest tree, cache files named and filled with
    # the guest's paths (as a device's fc-cache would). Without SOURCE_DATE_EPOCH, which would
    # put another time into the cache than the guest's fontconfig compares with.
    env = {k: v for k, v in os.environ.items() if k not in FONTCONFIG_ENV}
    subprocess.run(["fc-cache", "--system-only", f"--sysroot={root}"], check=True, capture_output=True, env=env)


def base(kern):
    """The cached base archive for kernel entry kern."""
    key = cache.key_of(kern.name, host_versions(), fontconfig_setup(), Path(__file__), Path(rootfs.__file__),
                       GUEST / "99-kiosk-e2e-hotplug.rules")
    return cache.entry("initramfs", key, lambda out: build_base(out, kern), "base initramfs") / "base.cpio"


def payload(out, scenario, files, env, init=GUEST / "init", with_libraries=True, extra=None):
    """The per-run archive: /init, /e2e/, /scenario/, /payload/bin/<files> and their libraries,
    and extra: {guest path: text} (the run's ssh key)."""
    root = out / "payload-root"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    put(root, init, "/init", mode=0o755)
    put(root, GUEST / "init", "/e2e/init", mode=0o755)  # fast mode's init on a Debian root (arm64)
    put(root, GUEST / "lib.sh", "/e2e/lib.sh")
    put(root, GUEST / "run-scenario", "/e2e/run-scenario", mode=0o755)
    put(root, GUEST / "agent", "/e2e/agent", mode=0o755)
    put(root, GUEST / "diagnose", "/e2e/diagnose", mode=0o755)
    shutil.copytree(scenario.dir, root / "scenario")
    for f in files:
        if with_libraries:
            put_with_libraries(root, f, Path("/payload/bin") / Path(f).name)
        else:
            put(root, f, Path("/payload/bin") / Path(f).name)
    for where, text in (extra or {}).items():
        (root / where.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / where.lstrip("/")).write_text(text)
    (root / "etc/kiosk-e2e").mkdir(parents=True, exist_ok=True)
    (root / "etc/kiosk-e2e/env").write_text("".join(f"export {k}='{v}'\n" for k, v in env.items()))
    # Paths are usr-merged (usr/lib/...): no entry here replaces the base's bin -> usr/bin links.
    rootfs.write_cpio(root, out / "payload.cpio")
    shutil.rmtree(root)
    return out / "payload.cpio"
