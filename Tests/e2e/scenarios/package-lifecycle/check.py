"""The Debian package on a device: dpkg -i (enabled, menu at boot, the backlight's udev rule, no
drop-in without a backlight), an upgrade while it runs (restarted: new PID; the locally edited
conffile kept), dpkg-reconfigure with a stand-in backlight (its drop-in), the service's PIN lockout state in
/var/lib/kiosk (0700, 0600, the kiosk's), dpkg --purge (nothing left, the drop-in and the state
neither)."""
import json

from e2e import kiosk


def check(r):
    debs = r.lines("debs.txt")  # dpkg-deb -f: "Package: kiosk", "Version: ..." for each
    r.require(len(debs) == 4 and debs[0] == debs[2] == "Package: kiosk", f"the two packages are not kiosk packages: {debs}")
    old, new = debs[1].removeprefix("Version: "), debs[3].removeprefix("Version: ")
    r.require(old != new, f"kiosk-old.deb and kiosk-new.deb are both version {old}: build the new one with a higher --version")

    r.expect_rc("install", 0)
    r.expect(r.text("installed.txt").strip() == f"install ok installed {old}", f"after dpkg -i: {r.text('installed.txt')}")
    r.expect(r.text("enabled.txt").strip() == "enabled", f"kiosk.service not enabled by the postinst: {r.text('enabled.txt')}")
    r.expect(r.text("active-after-install.txt").strip() == "inactive",
             f"the first install started the kiosk (it should wait for the next boot): {r.text('active-after-install.txt')}")
    user = r.text("user.txt")
    r.expect("(video)" in user and "(input)" in user, f"user kiosk lacks video/input: {user}")
    r.expect(r.text("which-kiosk.txt").strip() == "/usr/bin/kiosk", f"kiosk on PATH: {r.text('which-kiosk.txt')}")
    r.expect("kiosk.1.gz" in r.text("man-w.txt") and "kiosk.toml.5.gz" in r.text("man-w.txt"),
             f"the man pages are not installed: {r.text('man-w.txt')}")
    r.expect("no group" not in r.text("control-api-files.txt") and "cannot access" not in r.text("control-api-files.txt"),
             f"the control API's group or bus policy is missing: {r.text('control-api-files.txt')}")
    r.expect("cannot access" not in r.text("backlight-files.txt"),
             f"the backlight's udev rule, tool or man page is not installed: {r.text('backlight-files.txt')}")
    r.expect(not r.text("backlight-devices.txt").strip(), f"the VM has a backlight: {r.text('backlight-devices.txt')}")
    r.expect("backlight.conf" not in r.text("dropin-installed.txt"),
             f"the postinst wrote a backlight drop-in with no backlight device: {r.text('dropin-installed.txt')}")

    r.require(r.exists("status-boot.json"), "no status file at boot")
    boot = json.loads(r.text("status-boot.json"))
    r.expect(boot.get("control_api") == "ready",
             f"the control API at boot: {boot.get('control_api')} ({boot.get('control_api_problem')})")
    pid = int(r.text("pid-boot.txt"))
    r.expect(boot["pid"] == pid and boot["screen"] == "main" and boot["config_valid"], f"status at boot: {boot}")
    r.expect_rc("render-boot", 0)
    kiosk.expect_same_image(r, "boot.png", "render-boot.png")

    r.expect_rc("upgrade", 0)
    r.expect(r.text("upgraded.txt").strip() == f"install ok installed {new}", f"after the upgrade: {r.text('upgraded.txt')}")
    new_pid = int(r.text("pid-upgraded.txt") or 0)
    r.expect(new_pid not in (0, pid), f"the upgrade did not restart the kiosk: main PID {pid} -> {new_pid}")
    upgraded = json.loads(r.text("status-upgraded.json") or "{}")
    r.expect(upgraded.get("pid") == new_pid and upgraded.get("screen") == "main" and upgraded.get("config_valid"),
             f"status after the upgrade: {upgraded}")
    r.expect(r.text("enabled-upgraded.txt").strip() == "enabled", f"not enabled after the upgrade: {r.text('enabled-upgraded.txt')}")
    r.expect(r.text("upgraded-md5.txt") == r.text("edited-md5.txt"),
             f"the edited /etc/kiosk/kiosk.toml was not kept: {r.text('edited-md5.txt')} -> {r.text('upgraded-md5.txt')}")
    r.expect("dpkg-" not in r.text("etc-kiosk-upgraded.txt"), f"dpkg left conffile copies: {r.text('etc-kiosk-upgraded.txt')}")
    r.expect_rc("render-upgraded", 0)
    kiosk.expect_same_image(r, "upgraded.png", "render-upgraded.png")
    r.expect(r.png("upgraded.png").diff(r.png("boot.png"))[0] > 0, "the screen after the upgrade does not show the edited title")

    r.expect_rc("reconfigure", 0)
    r.expect("ReadWritePaths=-/sys/class/backlight/e2e_backlight/brightness" in r.lines("dropin-reconfigured.txt"),
             f"dpkg-reconfigure with a backlight wrote no drop-in for it: {r.text('dropin-reconfigured.txt')}")
    r.expect_rc("purge", 0)
    r.expect("not-installed" in r.text("purged-status.txt") or "no packages found" in r.text("purged-status.txt"),
             f"kiosk still known to dpkg after the purge: {r.text('purged-status.txt')}")
    r.expect(len(r.lines("package-files.txt")) > 20, f"dpkg -L kiosk listed only {r.lines('package-files.txt')}")
    r.expect(not r.text("left-behind.txt").strip(), f"files of the package left after the purge:\n{r.text('left-behind.txt')}")
    r.expect(r.lines("user-purged.txt") == ["no user kiosk", "no group kiosk"], f"after the purge: {r.text('user-purged.txt')}")
    unit = r.text("unit-purged.txt")
    r.expect("LoadState=not-found" in unit and "ActiveState=inactive" in unit, f"the unit after the purge: {unit}")
    r.expect("kiosk.service" not in r.text("unit-links-purged.txt"), f"unit links or helper state left:\n{r.text('unit-links-purged.txt')}")
    r.expect(not r.text("kiosk-processes.txt").strip(), f"kiosk processes after the purge: {r.text('kiosk-processes.txt')}")
    left = r.text("etc-run-purged.txt")
    state = r.lines("state-before-purge.txt")
    r.expect(len(state) == 2 and state[0].startswith("drwx------") and state[1].startswith("-rw-------")
             and all(line.split()[2] == "kiosk" for line in state),
             "the service's PIN lockout state is not the kiosk's alone: " + " | ".join(state))
    for d in ("/etc/kiosk", "/etc/systemd/system/kiosk.service.d", "/var/lib/kiosk"):
        r.expect(d not in left.replace(f"cannot access '{d}'", ""), f"{d} after the purge: {left}")
