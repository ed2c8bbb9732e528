"""Which kernel packages the guest is made from: a complete, consistent set that the archive
(or the local .deb cache) has today, and why.

Debian's archive does not move its kernel packages in step: on 2026-11-28 `linux-image-amd64`
depended on linux-image-6.1.0-56-amd64 6.1.192-2 while linux-kbuild-6.1 was only at 6.1.192-3
and 6.1.176-1. Asking for every package at the image's exact revision then fails on any machine
whose cache is empty. So: the image and its headers at one version (they come from one source
upload), kbuild and source of the same upstream version at any Debian revision (vkms builds
against any), else the newest complete older set.

Pure: the archive is asked through `Answers`, which either runs apt-cache or replays recorded
answers (Tests/e2e/lib/e2e/test_kernel_choice.py feeds it the archive of several days).
"""
import re
from dataclasses import dataclass, field


class NoKernelSet(RuntimeError):
    pass


@dataclass
class KernelSet:
    abi: str                 # 6.1.0-56-amd64
    version: str             # the image's (and its headers') version, 6.1.192-2
    packages: dict           # package name -> version, every .deb the guest is made from
    why: list = field(default_factory=list)

    def describe(self):
        return f"{self.abi}: " + ", ".join(f"{p} {v}" for p, v in self.packages.items())

    def key(self):
        """What the cache entry is keyed by: the packages chosen, not what apt named first."""
        return " ".join(f"{p}={v}" for p, v in sorted(self.packages.items()))


def upstream(version):
    """6.1.192 of 6.1.192-2 (epoch and Debian revision dropped)."""
    v = version.split(":", 1)[-1]
    return v.rsplit("-", 1)[0] if "-" in v else v


def version_key(version):
    """A sort key close enough to dpkg's order for kernel versions (digits compared as numbers)."""
    v = version.split(":", 1)
    epoch = int(v[0]) if len(v) == 2 and v[0].isdigit() else 0
    parts = re.split(r"(\d+)", v[-1])
    return (epoch, [(0, int(p)) if p.isdigit() else (1, p) for p in parts if p != ""])


def abi_number(abi):
    """(6, 1, 0, 56) of 6.1.0-56-amd64 (Debian 13's 6.12.57+deb13-arm64: (6, 12, 57, 13, 64)),
    for ordering the ABIs of one series newest first."""
    return tuple(int(x) for x in re.findall(r"\d+", abi))


class Answers:
    """What the chooser asks the archive. `ask(args)` returns apt-cache's stdout for args (a
    tuple such as ("madison", "linux-kbuild-6.1")), or None when apt-cache could not answer."""

    def __init__(self, ask, cached=()):
        self.ask = ask
        self.cached = list(cached)  # (package, version) of .debs already on this machine

    def meta_abi(self, meta):
        out = self.ask(("depends", meta)) or ""
        m = re.search(r"Depends: linux-image-(\S+)", out)
        return m.group(1) if m else None

    def abis(self, series, flavour):
        """Every linux-image-SERIES.N-M-FLAVOUR the archive or the cache names."""
        pat = re.compile(rf"^linux-image-({re.escape(series)}\.\d+(?:-\d+|\+deb\d+)-{re.escape(flavour)})$")
        names = set()
        for line in (self.ask(("pkgnames", f"linux-image-{series}.")) or "").split():
            m = pat.match(line.strip())
            if m:
                names.add(m.group(1))
        for p, _ in self.cached:
            m = pat.match(p)
            if m:
                names.add(m.group(1))
        return sorted(names, key=abi_number, reverse=True)

    def versions(self, package):
        """The versions of package that can be had, newest first."""
        found = {v for p, v in self.cached if p == package}
        for line in (self.ask(("madison", package)) or "").splitlines():
            cols = [c.strip() for c in line.split("|")]
            if len(cols) >= 3 and cols[0] == package:
                found.add(cols[1])
        return sorted(found, key=version_key, reverse=True)


def choose(answers, meta, flavour, with_build=True, pin=None, hint=None):
    """The newest complete set. meta: the metapackage whose dependency names today's kernel
    (linux-image-amd64). with_build: the set includes what building vkms needs (headers, kbuild,
    source); the arm64 guest needs the image alone. pin: (abi, version) the user asked for
    (KIOSK_E2E_KERNEL); only that image is considered, its other packages are still chosen.
    hint: the newest ABI to consider when apt-cache cannot name meta's (offline, from the cache)."""
    why = []
    if pin:
        newest = pin[0]
        why.append(f"pinned by the environment to linux-image-{pin[0]} {pin[1]}")
    else:
        newest = answers.meta_abi(meta)
        if newest:
            why.append(f"{meta} depends on linux-image-{newest}")
        elif hint:
            newest = hint
            why.append(f"apt-cache does not answer: choosing from the cached .debs, {hint} or older")
        else:
            why.append(f"apt-cache does not know {meta} (no lists?): choosing from what the archive and the cache name")
    series = ".".join((newest or "").split(".")[:2]) or None
    if series is None:
        raise NoKernelSet(f"no kernel to choose: apt-cache does not know {meta} and nothing is cached. "
                          f"Run `apt-get update`, or set KIOSK_E2E_KERNEL=ABI=VERSION")
    abis = [pin[0]] if pin else [a for a in answers.abis(series, flavour) if abi_number(a) <= abi_number(newest)]
    if newest and newest not in abis:
        abis.insert(0, newest)
    tried = []
    for abi in abis:
        base = abi[: -len(flavour) - 1]  # 6.1.0-56
        image = f"linux-image-{abi}"
        images = [pin[1]] if pin else answers.versions(image)
        if not images:
            tried.append(f"{image}: not in the archive")
            continue
        for ver in images:
            pkgs = {image: ver}
            missing = []
            if with_build:
                for p in (f"linux-headers-{abi}", f"linux-headers-{base}-common"):
                    if ver in answers.versions(p):
                        pkgs[p] = ver
                    else:
                        missing.append(f"{p} {ver}")
                for p in (f"linux-kbuild-{series}", f"linux-source-{series}"):
                    same = [v for v in answers.versions(p) if upstream(v) == upstream(ver)]
                    # The image's own revision when there, else the newest of the same upstream.
                    pick = ver if ver in same else (same[0] if same else None)
                    if pick:
                        pkgs[p] = pick
                    else:
                        missing.append(f"{p} {upstream(ver)}-*")
            if not missing:
                chosen = KernelSet(abi, ver, pkgs, why)
                if tried:
                    why.append("newer sets are incomplete: " + "; ".join(tried))
                off = [f"{p} {v}" for p, v in pkgs.items() if v != ver]
                if off:
                    why.append(f"at another Debian revision of {upstream(ver)} (vkms builds with any): {', '.join(off)}")
                why.append(f"chosen: {chosen.describe()}")
                return chosen
            tried.append(f"{image} {ver} lacks {', '.join(missing)}")
    raise NoKernelSet("no complete kernel set in the archive or the cache:\n  " + "\n  ".join(tried or ["(none named)"])
                      + f"\nRun `apt-get update` (the lists may be old), or name a set that exists with "
                      f"KIOSK_E2E_KERNEL{'_ARM64' if flavour == 'arm64' else ''}=ABI=VERSION")
