"""Tests/e2e/run: prepares the guest (cached), boots one VM per scenario, checks the results."""
import argparse
import concurrent.futures
import json
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

from . import cache, hoststep, initramfs, kernel_arm64, qemu, scenario, systemd, tools
from .target import Target
from .cache import log
from .check import CheckFailed, Result

REPO = cache.E2E_DIR.parents[1]
KIOSK_BUILD = "swift build -c release --static-swift-stdlib --product kiosk --scratch-path .build-static"
SERIAL_TAIL = 60

HELP = f"""\
Runs the VM scenarios under Tests/e2e/scenarios (all by default) in qemu with Debian's
kernel, vkms and uinput. Exit status 0 only if every scenario passes.

Payload: kiosk-uinput (always), .build-static/release/kiosk if it exists (build it with
`{KIOSK_BUILD}`, or pass --build-kiosk), and any --payload FILE.
Results: .build-e2e/results/<scenario>/ (serial.log and the files the guest returned).
Cache: {cache.ROOT} (override with KIOSK_E2E_CACHE). KIOSK_E2E_ACCEL=kvm|tcg forces the accelerator.
"""


def parse_args(argv):
    p = argparse.ArgumentParser(prog="Tests/e2e/run", description=HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                   help="scenario names (see --list) or paths to scenario directories; default: all")
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    p.add_argument("--prepare", action="store_true",
                   help="make (or find) everything the selected scenarios boot: the kernel, the guest "
                        "helpers and each boot mode's images in the cache; run nothing")
    p.add_argument("--payload", action="append", default=[], metavar="FILE",
                   help="a host binary to put on the guest's PATH (with its libraries); repeatable")
    p.add_argument("--kiosk", default=str(REPO / ".build-static/release/kiosk"), metavar="FILE",
                   help="the kiosk binary (default: .build-static/release/kiosk)")
    p.add_argument("--build-kiosk", action="store_true", help=f"run `{KIOSK_BUILD}` first")
    p.add_argument("--arch", default="amd64", metavar="ARCH",
                   help="the guest's architecture: amd64 (default) or arm64 (Debian 13's kernel in "
                        "qemu-system-aarch64 -M virt with virtio-gpu; --kiosk must be an aarch64 build)")
    p.add_argument("--suite", default=None, metavar="SUITE",
                   help="the Debian suite of the systemd-mode root: bookworm (default on amd64) or trixie "
                        "(Debian 13; the only one on arm64)")
    p.add_argument("--host-kiosk", default=str(REPO / ".build-static/release/kiosk"), metavar="FILE",
                   help="the host's (x86_64) kiosk that checks render reference images with when the "
                        "guest's kiosk cannot run on the host (--arch arm64); default .build-static/release/kiosk")
    p.add_argument("--results", default=None, metavar="DIR",
                   help="where each scenario's serial.log and returned files go (default .build-e2e/results, "
                        ".build-e2e/results-ARCH-SUITE for another --arch or --suite)")
    p.add_argument("-v", "--verbose", action="store_true", help="stream the guest's serial console")
    p.add_argument("--jobs", type=int, default=int(os.environ.get("KIOSK_E2E_JOBS", 1)), metavar="N",
                   help="guests to run at once (default 1, or KIOSK_E2E_JOBS): the longest scenarios first, "
                        "those marked `e2e-alone` afterwards one by one; a guest that waits leaves the host's "
                        "CPUs to the other")
    p.add_argument("--part", choices=("all", "shared", "alone"), default="all",
                   help="of the selected scenarios, run only those that may share the host (shared) or "
                        "only those marked `e2e-alone` (alone): scripts/test runs work that times "
                        "nothing beside the alone part; default all")
    p.add_argument("--timeout-scale", type=float, default=float(os.environ.get("KIOSK_E2E_TIMEOUT_SCALE", 1)),
                   help="multiply every scenario's timeout (slow machines)")
    p.add_argument("--failed-to", default=None, metavar="FILE",
                   help="write the names of the scenarios that failed to FILE, one per line (empty when "
                        "every one passed; not written when the run stopped before its scenarios): "
                        "scripts/test boots those again alone")
    return p.parse_args(argv)


HOST_TOOLS = ["cpio", "udevadm", "gcc", "make", "modprobe", "depmod", "apt-get",
              "apt-cache", "dpkg", "ldd", "fc-cache"]


def preflight(target):
    tools_ = HOST_TOOLS + [target.qemu]
    if target.arch == "arm64":
        tools_ += ["qemu-aarch64-static", "aarch64-linux-gnu-gcc"]
    if not target.native:
        tools_ += ["mmdebstrap"]
    missing = [t for t in tools_ if not shutil.which(t)]
    missing += [f for f in ("/bin/busybox", "/usr/share/libinput", "/usr/share/fonts/truetype/dejavu",
                            "/etc/fonts/fonts.conf")
                if not Path(f).exists()]
    if missing:
        raise SystemExit(f"e2e: missing on the host: {', '.join(missing)}; run scripts/install-deps")


def load_check(path):
    spec = importlib.util.spec_from_file_location(f"e2e_check_{path.parent.name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.check


ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# How a shutdown that systemd carries out shows on the console: its target reached (the status
# line), then the kernel's last words. The test bed's own end (SuccessAction=poweroff-force of
# kiosk-e2e.service) skips the target, so it does not pass for one.
SHUTDOWNS = {"poweroff": ("poweroff.target", "reboot: Power down"),
             "reboot": ("reboot.target", "reboot: Restarting system")}


def shutdown_verdict(serial, kind):
    """For a scenario whose system shuts down by itself: None if it was a whole `kind`."""
    marker = f"KIOSK-E2E: AWAITING-SHUTDOWN {kind}"
    if marker not in serial:
        if "KIOSK-E2E: GUEST-EXIT" in serial:
            return f"guest.sh ended without handing over to the {kind} (no e2e_shutdown_by {kind})"
        return f"guest stopped before handing over to the {kind} (no '{marker}' on the serial console)"
    after = ANSI.sub("", serial[serial.index(marker):])
    if "KIOSK-E2E: GUEST-EXIT" in after:
        return f"no {kind}: the system was still up when e2e_shutdown_by gave up waiting"
    target, last = SHUTDOWNS[kind]
    for other, (other_target, other_last) in SHUTDOWNS.items():
        if other != kind and other_last in after:
            return f"the guest did a {other} ('{other_last}'), not a {kind}"
    if not re.search(rf"Reached target {re.escape(target)}\b", after):
        return f"systemd never reached {target}: not a {kind} through systemd"
    if last not in after:
        return f"the kernel never said '{last}' after the {kind} began"
    return None


# What a guest's kernel prints when it is in trouble (never a reason to boot it again).
KERNEL_PROBLEMS = ("Kernel panic", "BUG: ", "Oops: ")


def guest_verdict(serial, boot, ends=None):
    """Why the guest run itself failed, from the serial log; None if it completed (or, with
    ends, shut down that way by itself)."""
    for bad in KERNEL_PROBLEMS:
        if bad in serial:
            return f"kernel problem in the guest ({bad.strip()})"
    for line in serial.splitlines():
        if line.startswith("KIOSK-E2E: FATAL"):
            return "guest setup failed: " + line[len("KIOSK-E2E: FATAL "):]
    if boot.stopped:
        return boot.stopped
    if ends:
        return shutdown_verdict(serial, ends)
    if "KIOSK-E2E: DONE" not in serial:
        return "guest stopped before finishing (no 'KIOSK-E2E: DONE' on the serial console)"
    return None


def why_boot_again(serial, diagnosis):
    """Why booting a failed guest once more is fair (its run says nothing about the kiosk), or
    None. Two cases: it stopped while booting, before run-scenario began the scenario (nothing of
    the kiosk was installed or started); or the whole guest froze, its agent (a process of its own
    on a second serial port) as silent as its console: seen under TCG with the emulator or the
    guest kernel stuck. A kiosk that starves its guest that way would freeze the second boot too.
    A kernel problem or a setup failure is never retried."""
    if not serial or "KIOSK-E2E: FATAL" in serial or any(bad in serial for bad in KERNEL_PROBLEMS):
        return None
    if "KIOSK-E2E: SCENARIO-START" not in serial:
        return "the first guest hung before the scenario started"
    if qemu.AGENT_SILENT in diagnosis:
        return "the first guest froze (console and agent both silent)"
    return None


def run_booting_again(run, out):
    """run() -> (failures, serial) for the scenario whose results go to `out`; run again once when
    why_boot_again says so, the first console kept as out/first-boot-serial.log. Returns
    (failures, serial, what the report adds: "" or "; booted twice: why ...")."""
    failures, serial = run()
    diagnosis = out / "diagnosis.txt"
    why = why_boot_again(serial, diagnosis.read_text() if diagnosis.exists() else "") if failures else None
    if not why:
        return failures, serial, ""
    first = out.parent / f"{out.name}.first-boot-serial.log"  # run() empties `out`
    if (out / "serial.log").exists():
        shutil.copy(out / "serial.log", first)
    first_failure = (failures[-1].splitlines() or [""])[0]
    failures, serial = run()
    if first.exists():
        out.mkdir(parents=True, exist_ok=True)
        shutil.move(str(first), out / "first-boot-serial.log")
    return failures, serial, f"; booted twice: {why} (first-boot-serial.log): {first_failure}"


def summarize_diagnosis(text, limit=40):
    """The telling parts of diagnosis.txt: blocked processes, the scenario's tree, PID 1, jobs."""
    keep, on = [], False
    for line in text.splitlines():
        if line.startswith("### "):
            on = any(w in line for w in ("waiting in the kernel", "scenario's processes", "PID 1", "systemd jobs"))
        if on and line.strip():
            keep.append(line)
    if not keep:
        keep = text.splitlines()
    return "\n".join(keep[:limit]) + ("\n..." if len(keep) > limit else "")


class Guest:
    """What a boot mode boots: the kernel, a cached initramfs, extra disks; built on first use."""

    def __init__(self, kern, target):
        self.kern, self.target, self.modes = kern, target, {}

    def get(self, mode):
        if mode not in self.modes:
            with cache.locked():
                if self.target.arch == "arm64":
                    # No busybox initramfs of host binaries: both modes boot the arm64 root,
                    # fast mode from an image of its own running guest/init (E2E_INIT).
                    if mode not in ("fast", "systemd"):
                        raise ValueError(f"unknown boot mode {mode!r} (fast or systemd)")
                    self.modes[mode] = (systemd.stage1(self.kern, self.target),
                                        [systemd.image(self.kern, self.target, fast=mode == "fast")],
                                        initramfs.GUEST / "stage1-init", False)
                elif mode == "fast":
                    self.modes[mode] = (initramfs.base(self.kern), [], initramfs.GUEST / "init", True)
                elif mode == "systemd":
                    self.modes[mode] = (systemd.stage1(self.kern), [systemd.image(self.kern, self.target)],
                                        initramfs.GUEST / "stage1-init", False)
                else:
                    raise ValueError(f"unknown boot mode {mode!r} (fast or systemd)")
        return self.modes[mode]


def run_scenario(sc, args, guest, payload_files, results_root):
    out = results_root / sc.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    names = {Path(f).name for f in payload_files}
    for need in sc.needs:
        if need not in names:
            if need == "kiosk":
                return [f"kiosk binary not built: run `{KIOSK_BUILD}` (or Tests/e2e/run --build-kiosk)"], ""
            if need.endswith(".deb"):
                return [f"package '{need}' not given: build it with packaging/build-deb (scripts/test does) "
                        f"and pass --payload /path/to/{need}"], ""
            return [f"payload binary '{need}' not given: pass --payload /path/to/{need}"], ""
    try:
        base, disks, init, with_libs = guest.get(sc.mode)
    except Exception as e:
        return [f"preparing the {sc.mode} guest failed: {e}"], ""
    run_dir = out / ".run"
    run_dir.mkdir()
    target = guest.target
    env = {"E2E_SCENARIO": sc.name, "E2E_SLOW": str(target.slow), "E2E_ARCH": target.arch, "E2E_SUITE": target.suite, "E2E_CONSOLE": target.console}
    if target.arch == "arm64" and sc.mode == "fast":
        env["E2E_INIT"] = "/e2e/init"
    extra, ssh_port, while_running, host = {}, None, None, None
    if sc.net:
        ssh_port = hoststep.free_port()
        key, public = hoststep.make_key(run_dir)
        env["E2E_NET"] = sc.net
        extra["/e2e/ssh/authorized_keys"] = public
        if sc.host:
            host = hoststep.Host(run_dir / "serial.log", out / "files/host", run_dir / "host", ssh_port, key,
                                 {Path(f).name: Path(f) for f in payload_files}, args.timeout_scale)

            def while_running():
                thread = hoststep.start(sc.host, host)

                def ended():
                    host.stop.set()
                    thread.join(60)
                return ended
    # Packages go only to the scenarios that name them (they are megabytes each guest unpacks).
    files = [f for f in payload_files if not Path(f).name.endswith(".deb") or Path(f).name in sc.needs]
    pl = initramfs.payload(run_dir, sc, files, env, init=init, with_libraries=with_libs, extra=extra)
    initrd = run_dir / "initrd.cpio"
    with open(initrd, "wb") as f:
        for part in (base, pl):
            with open(part, "rb") as src:
                shutil.copyfileobj(src, f)
    scale = args.timeout_scale * target.slow
    boot = qemu.run(guest.kern / "vmlinux", initrd, run_dir, timeout=sc.timeout * scale,
                    memory_mb=sc.memory, disks=disks, verbose=args.verbose,
                    silence=sc.silence * scale, ssh_port=ssh_port, while_running=while_running,
                    arch=target.arch, baseline_cpu=sc.mode == "systemd")
    shutil.move(str(run_dir / "serial.log"), out / "serial.log")
    if (run_dir / "diagnosis.txt").exists():
        shutil.move(str(run_dir / "diagnosis.txt"), out / "diagnosis.txt")
    got = qemu.extract_results(run_dir, out / "files")
    shutil.rmtree(run_dir)
    failures = list(host.failures) if host else []
    why = guest_verdict(boot.serial, boot, sc.ends)
    if why:
        if boot.stopped:
            why += f"\nwhat the guest was doing (from its agent; full: {out / 'diagnosis.txt'}):\n"
            why += summarize_diagnosis(boot.diagnosis)
        return failures + [why], boot.serial
    if not got:
        return ["the guest returned no results (results disk empty)"], boot.serial
    r = Result(sc.name, out / "files", boot.serial)
    r.payload = {Path(f).name: Path(f) for f in payload_files}
    r.arch, r.suite, r.slow = target.arch, target.suite, target.slow
    # The kiosk that renders references on the host: the guest's own binary where the host can
    # run it, else (arm64) the x86_64 build: the aarch64 screen must equal its render.
    r.host_kiosk = Path(args.host_kiosk) if target.arch == "arm64" else r.payload.get("kiosk")
    if not sc.ends:  # else guest.sh never exits: the shutdown ends it
        guest_rc = r.text("guest.rc").strip()
        if guest_rc != "0":
            failures.append(f"guest.sh exited {guest_rc} (see files/guest.log)")
    try:
        load_check(sc.check)(r)
    except CheckFailed as e:
        r.failures.append(str(e))
    except Exception:
        r.failures.append("check.py crashed:\n" + traceback.format_exc())
    warnings = [l.strip() for l in boot.serial.splitlines() if "WARNING:" in l]
    if warnings:
        r.note(f"kernel warnings in the serial log, first: {warnings[0]}")
    for n in r.notes:
        print(f"    note: {n}")
    return failures + r.failures, boot.serial


class Durations:
    """How long each scenario took when it last passed (in the cache, per target): --jobs starts
    the longest first, so that the last guests to finish do not run alone for long."""

    def __init__(self, target):
        self.path = cache.ROOT / f"durations-{target.arch}-{target.suite}.json"
        try:
            self.known = json.loads(self.path.read_text())
        except (OSError, ValueError):
            self.known = {}
        self.recorded = {}

    def expected(self, sc):
        return self.known.get(sc.name, sc.timeout / 3)

    def record(self, sc, seconds):
        self.recorded[sc.name] = round(seconds, 1)

    def save(self):
        """Merges this run's times into the file as it is now: another run of the same target
        (scripts/test runs the arm64 shared and alone scenarios side by side) keeps its own."""
        try:
            try:
                known = json.loads(self.path.read_text())
            except (OSError, ValueError):
                known = {}
            known.update(self.recorded)
            cache.ROOT.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(known, indent=1, sort_keys=True))
            tmp.rename(self.path)
        except OSError:
            pass


def cpu_jiffies():
    """(busy, total) jiffies of all the host's CPUs, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4], sum(fields)


def cpu_share(before, after):
    """How busy the host's CPUs were between two cpu_jiffies(), in percent: how much room a
    scenario leaves for other work beside it."""
    total = after[1] - before[1]
    return round(100 * (after[0] - before[0]) / total) if total > 0 else 0


def part_of(scenarios, part):
    """The scenarios of --part: all, those that may share the host, or those marked e2e-alone."""
    return scenarios if part == "all" else [sc for sc in scenarios if bool(sc.alone) == (part == "alone")]


def main(argv):
    args = parse_args(argv)
    if args.list:
        for sc in part_of(scenario.select(args.scenarios), args.part):
            print(f"{sc.name:20} mode={sc.mode} timeout={sc.timeout}s needs={' '.join(sc.needs) or '-'}"
                  + (f" ends={sc.ends}" if sc.ends else "") + (" alone" if sc.alone else "") + (" figures" if sc.figures else ""))
        return 0
    selected = part_of(scenario.select(args.scenarios), args.part)
    if not selected:
        log(f"no {args.part} scenario among those selected: nothing to run")
        return 0
    target = Target(args.arch, args.suite)
    preflight(target)
    if args.prepare:
        t0 = time.monotonic()
        try:
            with cache.locked():
                guest = Guest(kernel_arm64.kernel_for(target), target)
                tools.kiosk_uinput(target.arch)
                if target.arch == "amd64":
                    tools.kiosk_drmstate()
                    tools.kiosk_freeze_thread()
            for mode in sorted({sc.mode for sc in selected}):
                guest.get(mode)
        except RuntimeError as e:
            print(f"FAIL preparing the guest: {e}", file=sys.stderr)
            return 1
        log(f"prepared {target} ({', '.join(sorted({sc.mode for sc in selected}))}) in {time.monotonic() - t0:.1f}s")
        return 0
    if target.arch == "arm64" and not Path(args.host_kiosk).is_file():
        raise SystemExit(f"e2e: --arch arm64 needs the host's x86_64 kiosk for reference renders: "
                         f"{args.host_kiosk} missing (build it: `{KIOSK_BUILD}`, or pass --host-kiosk)")
    if args.build_kiosk:
        log(f"{KIOSK_BUILD}")
        subprocess.run(KIOSK_BUILD.split(), cwd=REPO, check=True)
    t0 = time.monotonic()
    try:
        with cache.locked():
            guest = Guest(kernel_arm64.kernel_for(target), target)
            # kiosk-drmstate links libdrm statically: there is no arm64 libdrm.a on the host, and
            # none of the scenarios run on arm64 uses it.
            payload_files = ([tools.kiosk_uinput("arm64")] if target.arch == "arm64"
                             else [tools.kiosk_uinput(), tools.kiosk_drmstate(), tools.kiosk_freeze_thread()])
    except RuntimeError as e:
        print(f"FAIL preparing the guest: {e}", file=sys.stderr)
        return 1
    kiosk = Path(args.kiosk)
    if kiosk.is_file():
        elf_machine = kiosk.read_bytes()[18:20] if kiosk.stat().st_size > 20 else b""
        want = {"amd64": b"\x3e\x00", "arm64": b"\xb7\x00"}[target.arch]
        if elf_machine != want:
            raise SystemExit(f"e2e: --kiosk {kiosk} is not an {target.arch} ELF binary (the guest is {target})")
        payload_files.append(kiosk)
        newer = [p for p in (REPO / "Sources").rglob("*.swift") if p.stat().st_mtime > kiosk.stat().st_mtime]
        if newer:
            log(f"warning: {kiosk} is older than {len(newer)} source file(s), e.g. {newer[0].relative_to(REPO)}")
    for f in args.payload:
        if not Path(f).is_file():
            raise SystemExit(f"e2e: --payload {f}: no such file")
        payload_files.append(Path(f).resolve())
    log(f"prepared in {time.monotonic() - t0:.1f}s; guest {target}; accelerator {qemu.accel(target.arch)}; "
        f"payload {' '.join(p.name for p in payload_files)}")
    results_root = Path(args.results or (REPO / (".build-e2e/results" if target.native
                                                 else f".build-e2e/results-{target.arch}-{target.suite}")))
    failed = []
    durations = Durations(target)
    printing = threading.Lock()

    def one(sc, beside):
        t, c = time.monotonic(), cpu_jiffies()
        failures, serial, retried = run_booting_again(
            lambda: run_scenario(sc, args, guest, payload_files, results_root), results_root / sc.name)
        took = time.monotonic() - t
        busy = cpu_share(c, cpu_jiffies())
        also = f", beside {beside - 1} other guest(s)" if beside > 1 else ""
        with printing:
            if not failures:
                if not retried:  # two boots' time would mislead the next run's order
                    durations.record(sc, took)
                print(f"PASS {sc.name} ({took:.1f}s, host CPU {busy}%{also}{retried})", flush=True)
                return
            failed.append(sc.name)
            print(f"FAIL {sc.name} ({took:.1f}s, host CPU {busy}%{also}{retried})")
            for f in failures:
                print("    " + f.replace("\n", "\n    "))
            if serial:
                print(f"    --- serial log, last {SERIAL_TAIL} lines (full: {results_root / sc.name / 'serial.log'}) ---")
                for line in serial.splitlines()[-SERIAL_TAIL:]:
                    print("    | " + line)
            sys.stdout.flush()

    jobs = max(1, args.jobs)
    if jobs == 1:
        for sc in selected:
            one(sc, 1)
    else:
        for mode in sorted({sc.mode for sc in selected}):  # made once, before guests race for them
            try:
                guest.get(mode)
            except Exception:
                pass  # run_scenario reports it for each scenario of that mode
        shared = sorted((sc for sc in selected if not sc.alone), key=durations.expected, reverse=True)
        log(f"{len(shared)} scenario(s) {jobs} at a time, longest first; then {len(selected) - len(shared)} alone")
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for f in [pool.submit(one, sc, min(jobs, len(shared))) for sc in shared]:
                f.result()
        for sc in selected:
            if sc.alone:
                one(sc, 1)
    durations.save()
    if args.failed_to:
        Path(args.failed_to).write_text("".join(f"{name}\n" for name in failed))
    total = time.monotonic() - t0
    print(f"{len(selected) - len(failed)}/{len(selected)} scenarios passed in {total:.1f}s"
          + (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0
