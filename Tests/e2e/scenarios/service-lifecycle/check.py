"""The kiosk as a systemd service: boot, reload, restart after kill -9, stop."""
import json
import re

from e2e import kiosk


def check(r):
    if r.exists("first-flip.txt"):
        r.note(f"kernel start to the kiosk's first flip (monotonic ms): {r.text('first-flip.txt').strip()}")
    r.expect_rc("install", 0)
    r.expect(r.text("enabled.txt").strip() == "enabled", f"kiosk.service not enabled: {r.text('enabled.txt')}")
    user = r.text("user.txt")
    r.expect("(video)" in user and "(input)" in user, f"user kiosk lacks video/input: {user}")
    r.require(r.exists("status-boot.json"), f"no status file at boot:\n{r.text('status-boot.txt')}")
    boot = json.loads(r.text("status-boot.json"))
    pid = int(r.text("pid-boot.txt"))
    r.expect(boot["pid"] == pid, f"status pid {boot['pid']} is not the service's main pid {pid}")
    r.expect(boot["screen"] == "main" and boot["config_valid"], f"status at boot: {boot}")
    r.expect(r.text("getty-after.txt").strip() != "active", "getty@tty1 still runs next to the kiosk")
    r.expect(r.text("status-text.txt").startswith("Showing main"), f"STATUS= is {r.text('status-text.txt')!r}")
    creds = dict(l.split(":", 1) for l in r.lines("process-credentials.txt"))
    gids = {l.split(":")[0]: l.split(":")[2] for l in r.lines("groups.txt")}
    uid = re.search(r"uid=(\d+)", user).group(1)
    r.expect(creds["Uid"].split() == [uid] * 4, f"not running as kiosk ({uid}): Uid {creds['Uid']}")
    r.expect(sorted(creds["Groups"].split()) == sorted([gids["video"], gids["input"], gids["audio"], gids["kiosk"]]),
             f"supplementary groups {creds['Groups']}, wanted video, input, audio, kiosk {gids}")
    r.expect(int(creds["CapEff"], 16) == 0 and creds["NoNewPrivs"].strip() == "1" and creds["Seccomp"].strip() == "2",
             f"not sandboxed: {creds}")
    kiosk.expect_same_image(r, "boot.png", "render-boot.png")
    r.expect("kiosk" in kiosk.framebuffer_owners(r.text("dri-state-kiosk.txt")), "the kiosk's framebuffer is not on screen")

    r.expect_rc("reload", 0)
    before, after = map(int, r.text("generations.txt").split())
    r.expect(after == before + 1, f"generation {before} -> {after} after systemctl reload")
    r.expect(int(r.text("generation-before-reload.txt")) == before, "the bind mount of a new config was applied before the reload")
    r.expect(int(r.text("pid-after-reload.txt")) == pid, "systemctl reload changed the main PID")
    kiosk.expect_same_image(r, "reloaded.png", "render-reloaded.png")
    r.note(f"systemctl reload -> new generation in the status file: {r.text('reload-ms.txt').strip()} ms (target 1000, TCG)")

    new_pid = int(r.text("pid-after-kill.txt"))
    r.expect(new_pid not in (0, pid), f"after kill -9 the main PID is {new_pid}")
    r.expect(int(r.text("restarts.txt")) >= 1, "NRestarts did not count the restart")
    status_ms, ready_ms = int(r.text("restart-status-ms.txt")), int(r.text("restart-ready-ms.txt"))
    polled_ms = int(r.text("restart-ready-polled-ms.txt"))
    r.expect(0 < ready_ms <= polled_ms, f"systemd's READY time {ready_ms} ms is not within the {polled_ms} ms the poll saw")
    r.note(f"kill -9 -> status file by the new process {status_ms} ms, service READY (menu flipped) {ready_ms} ms "
           f"by systemd's clock ({polled_ms} ms until the poll saw it) (target 2000, TCG)")
    # No limit on the time: it is a figure (BENCHMARKS.md), and a loaded TCG host (an arm64
    # guest beside another at 99 % CPU) took 24.8 s. That the menu came back at all is bounded
    # by the guest's 60 s waits: a new PID, READY, and the screenshot below.
    kiosk.expect_same_image(r, "restarted.png", "render-reloaded.png")

    r.expect_rc("stop", 0)
    stopped = r.text("stopped.txt")
    r.expect("ActiveState=inactive" in stopped and "Result=success" in stopped, f"stop: {stopped}")
    owners = kiosk.framebuffer_owners(r.text("dri-state-stopped.txt"))
    console = kiosk.framebuffer_owners(r.text("dri-state-console.txt"))
    r.expect(owners and "kiosk" not in owners, f"after stop the framebuffers are allocated by {owners}")
    r.expect(owners == console, f"after stop: framebuffer of {owners}, before the kiosk: {console}")

    entries = [json.loads(l) for l in r.lines("journal-kiosk.json") if l.startswith("{")]
    levels = {(e.get("MESSAGE"), e.get("PRIORITY")) for e in entries}
    r.expect(("menu on screen", "6") in levels, "the journal lacks 'menu on screen' at info level (6)")
    r.expect(("config reloaded (SIGHUP)", "6") in levels, "the journal lacks 'config reloaded (SIGHUP)'")
    prefixed = [e["MESSAGE"] for e in entries if re.match(r"<\d>", str(e.get("MESSAGE")))]
    r.expect(not prefixed, f"syslog prefixes not taken by the journal: {prefixed[:3]}")
    kiosk.expect_exposure(r, "(in the guest)")

    r.expect_rc("uninstall", 0)
    after = r.text("after-uninstall.txt")
    r.expect("cannot access '/usr/local/bin/kiosk'" in after and "cannot access '/usr/local/lib/systemd/system/kiosk.service'" in after,
             f"uninstall left the binary or the unit:\n{after}")
    r.expect("cannot access '/etc/polkit-1/rules.d/50-kiosk.rules'" in after, f"uninstall left the polkit rule:\n{after}")
    r.expect("cannot access '/usr/local/sbin/kiosk-backlight-access'" in after and "cannot access '/usr/local/sbin/kiosk-lockdown'" in after,
             f"uninstall left its tools:\n{after}")
    r.expect("no user kiosk" in after, f"uninstall left the user:\n{after}")
    r.expect("\n/etc/kiosk/kiosk.toml\n" in "\n" + after, f"uninstall removed the config:\n{after}")
