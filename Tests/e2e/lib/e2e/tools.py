"""The project's guest-side helper tools, built statically and cached by source hash."""
import subprocess

from . import cache

TOOLS = cache.E2E_DIR / "tools"


def kiosk_uinput():
    src = TOOLS / "kiosk-uinput.c"
    cc = subprocess.run(["gcc", "--version"], text=True, capture_output=True, check=True).stdout.split("\n")[0]

    def build(out):
        r = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(out / "kiosk-uinput"), str(src)],
                           text=True, capture_output=True)
        if r.returncode != 0:
            raise RuntimeError(f"building kiosk-uinput failed:\n{r.stderr}")

    return cache.entry("tools", cache.key_of(src, cc), build, "kiosk-uinput") / "kiosk-uinput"


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
