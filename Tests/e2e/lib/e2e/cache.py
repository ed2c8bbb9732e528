"""The build cache under ~/.cache/kiosk-e2e: entries keyed by a hash of their inputs.

An entry is a directory `<kind>/<key>`; it is built in a temporary sibling and renamed
into place only when complete, so an interrupted build never leaves a half entry.
"""
import contextlib
import errno
import fcntl
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("KIOSK_E2E_CACHE", Path.home() / ".cache" / "kiosk-e2e"))
E2E_DIR = Path(__file__).resolve().parents[2]  # Tests/e2e
MIN_FREE = 4 << 30  # the largest entry (a root tree and its ext4 image) takes about 2 GiB


def log(msg):
    print(f"e2e: {msg}", file=sys.stderr, flush=True)


def key_of(*parts):
    """A short hash of strings, bytes and file contents (Paths)."""
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, Path):
            h.update(p.read_bytes())
        elif isinstance(p, bytes):
            h.update(p)
        else:
            h.update(str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def source_files(*names):
    """Harness files under Tests/e2e whose content is part of a cache key."""
    return [E2E_DIR / n for n in names]


@contextlib.contextmanager
def locked():
    """One builder at a time per cache (CI and a developer may share the machine)."""
    ROOT.mkdir(parents=True, exist_ok=True)
    with open(ROOT / ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def entry(kind, key, build, what=None):
    """Returns the directory for (kind, key), calling build(tmpdir) to create it if missing."""
    final = ROOT / kind / key
    if final.is_dir():
        os.utime(final)  # recently used: kept by prune()
        return final
    # Left by a build that was killed outright; safe to remove, builders hold the lock.
    for stale in (ROOT / kind).glob(".tmp-*") if (ROOT / kind).is_dir() else ():
        shutil.rmtree(stale, ignore_errors=True)
    tmp = ROOT / kind / f".tmp-{key}-{os.getpid()}"
    tmp.mkdir(parents=True)
    free = shutil.disk_usage(tmp).free
    if free < MIN_FREE:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"building {what or kind} needs about {MIN_FREE >> 30} GiB free in {ROOT}, "
                           f"there are {free / 2**30:.1f}: free some (or set KIOSK_E2E_CACHE to a roomier folder) and rerun")
    log(f"building {what or kind} ({key}) ...")
    t0 = time.monotonic()
    try:
        build(tmp)
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(e, OSError) and e.errno == errno.ENOSPC or "No space left on device" in str(e):
            raise RuntimeError(f"the disk filled while building {what or kind} in {ROOT} (the half-built entry "
                               f"is removed): free some space and rerun\n{e}") from e
        raise
    tmp.rename(final)
    log(f"built {what or kind} in {time.monotonic() - t0:.1f}s")
    prune(kind, keep=final)
    return final


def prune(kind, keep, max_entries=3):
    """Keeps the newest few entries of a kind so the cache does not grow forever."""
    entries = sorted((p for p in (ROOT / kind).iterdir() if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[max_entries:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
