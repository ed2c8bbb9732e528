"""The project's guest-side helper tools, built statically and cached by source hash."""
import subprocess

from . import cache

TOOLS = cache.E2E_DIR / "tools"


def kiosk_uinput(arch="amd64"):
    """arm64: cross-compiled with gcc-aarch64-linux-gnu (static, so it needs nothing of the guest)."""
    src = TOOLS / "kiosk-uinput.c"
    gcc = "aarch64-linux-gnu-gcc" if arch == "arm64" else "gcc"
    try:
        cc = subprocess.run([gcc, "--version"], text=True, capture_output=True, check=True).stdout.split("\n")[0]
    except FileNotFoundError:
        raise RuntimeError(f"{gcc} not found: apt-get install gcc-aarch64-linux-gnu (scripts/apt-packages-vm.txt)")

    def build(out):
        r = subprocess.run([gcc, "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(out / "kiosk-uinput"), str(src)],
                           text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"building kiosk-uinput failed:\n{r.stderr}")

    key = cache.key_of(src, cc) if arch == "amd64" else cache.key_of(src, cc, arch)
    kind = "tools" if arch == "amd64" else f"tools-{arch}"
    return cache.entry(kind, key, build, f"kiosk-uinput ({arch})") / "kiosk-uinput"


def kiosk_freeze_thread():
    """kiosk-freeze-thread: stops one thread of a process with ptrace (service-watchdog hangs the
    kiosk's event loop with it), linked statically."""
    src = TOOLS / "kiosk-freeze-thread.c"
    cc = subprocess.run(["gcc", "--version"], text=True, capture_output=True, check=True).stdout.split("\n")[0]

    def build(out):
        r = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
                            "-o", str(out / "kiosk-freeze-thread"), str(src)], text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"building kiosk-freeze-thread failed:\n{r.stderr}")

    return cache.entry("tools", cache.key_of(src, cc), build, "kiosk-freeze-thread") / "kiosk-freeze-thread"


def kiosk_drmstate():
    """kiosk-drmstate: connectors (DPMS) and CRTCs (ACTIVE) as libdrm reads them, linked statically."""
    src = TOOLS / "kiosk-drmstate.c"
    cc = subprocess.run(["gcc", "--version"], text=True, capture_output=True, check=True).stdout.split("\n")[0]
    libdrm = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libdrm-dev"], text=True, capture_output=True).stdout

    def build(out):
        r = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-I/usr/include/libdrm",
                            "-o", str(out / "kiosk-drmstate"), str(src), "-ldrm"], text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"building kiosk-drmstate failed (libdrm-dev installed?):\n{r.stderr}")

    return cache.entry("tools", cache.key_of(src, cc, libdrm), build, "kiosk-drmstate") / "kiosk-drmstate"
