"""Placing host files into a guest tree: usr-merged paths, ldd libraries, cpio archives."""
import os
import re
import shutil
import subprocess
from pathlib import Path

MERGED = ("bin", "sbin", "lib", "lib64")  # these are links into usr/ in the guest, as on the host


def guest_path(path):
    """The real (usr-merged) location of an absolute guest path: /lib/x -> usr/lib/x."""
    parts = Path(path).relative_to("/").parts
    if parts and parts[0] in MERGED:
        parts = ("usr",) + parts
    return Path(*parts)


def make_merged_links(root):
    for d in MERGED:
        (root / "usr" / d).mkdir(parents=True, exist_ok=True)
        if not (root / d).exists():
            os.symlink(f"usr/{d}", root / d)


def put(root, src, dest=None, mode=None):
    """Copies host file src (following links) to guest path dest (default: the same path)."""
    dst = root / guest_path(dest or src)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)  # keeps the mode: the dynamic loader must stay executable
    if mode is not None:
        os.chmod(dst, mode)
    return dst


def put_tree(root, src, dest=None, skip=()):
    src = Path(src)
    for dirpath, _, files in os.walk(src):
        for f in files:
            p = Path(dirpath) / f
            if any(p.is_relative_to(src / s) for s in skip):
                continue
            put(root, p, Path(dest or src) / p.relative_to(src))


def libraries(binary):
    """The shared libraries (and the loader) ldd reports for binary; [] for static files."""
    r = subprocess.run(["ldd", str(binary)], text=True, capture_output=True)
    if r.returncode != 0:
        if "not a dynamic executable" in r.stdout + r.stderr:
            return []
        raise RuntimeError(f"ldd {binary} failed: {r.stderr.strip()}")
    libs = []
    for line in r.stdout.splitlines():
        if "not found" in line:
            raise RuntimeError(f"{binary}: library missing on the host: {line.strip()}")
        m = re.search(r"(?:=> )?(/\S+) \(0x", line)
        if m:
            libs.append(m.group(1))
    return libs


def put_with_libraries(root, src, dest=None):
    put(root, src, dest)
    for lib in libraries(src):
        put(root, lib)


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def write_cpio(root, out):
    """An uncompressed newc archive of root (the guest skips decompression), owned by root."""
    names = subprocess.run(["find", ".", "-mindepth", "1"], cwd=root, check=True,
                           capture_output=True).stdout
    with open(out, "wb") as f:
        subprocess.run(["cpio", "--quiet", "-o", "-H", "newc", "-R", "0:0"], cwd=root,
                       input=b"\n".join(sorted(names.splitlines())) + b"\n", stdout=f, check=True)
