"""The installed service attacked (#31): commands from the broker, busctl and kiosk ctl on what is
behind the PIN are refused and nothing of it runs; value commands that fork and time out leave no
children; a reload of three hostile SVGs is refused naming the panic and the stall, the kiosk the
same process still drawing, its memory not holding the third's huge image; an unquoted password in the credentials file is refused by line and kind and appears
nowhere (journal, status, kiosk status, check-config); systemd never restarted the kiosk."""

SECRET = "hunter2xyz"
REFUSED = ("convolve-panic", "turbulence-stall")


def check(r):
    boot = r.json("status-boot.json")
    r.expect((boot.get("mqtt") or {}).get("state") == "connected", f"MQTT at boot: {boot.get('mqtt')}")
    r.expect(boot.get("control_api") == "ready", f"control API at boot: {boot.get('control_api')} ({boot.get('control_api_problem')})")

    # The lock, from the broker, the bus and kiosk ctl.
    errors = r.text("errors.txt")
    for topic in ("cmd/toggle/heater", "cmd/press/reset", "cmd/screen"):
        r.expect(topic in errors, f"no error answered for {topic}:\n{errors}")
    r.expect(errors.count("PIN") >= 3 or errors.count("Locked") >= 3, f"the refusals do not name the lock:\n{errors}")
    for name in ("bus-toggle", "bus-press", "ctl-press"):
        said = r.text(f"{name}.txt")
        r.expect("PIN" in said and not said.rstrip().endswith("exit 0"), f"{name} was not refused: {said}")
    files = r.text("marker-files.txt").split()
    ran = [f for f in ("heater-switched", "reset-ran") if f in files]
    r.expect(not ran, f"what is behind the PIN ran: {ran}")

    # What the menu launches cannot write the kiosk's own folders (Landlock): each write was
    # refused, and no file there holds what it wrote.
    # Nor read its secrets: the config (its PIN hash) and the broker's credentials.
    tries = [l.split() for l in r.lines("tamper-rc.txt")]
    r.expect(len(tries) >= 5 and all(len(t) == 2 and t[1] != "0" for t in tries),
             f"a launched program wrote the kiosk's state or status, or read its secrets: {tries}")
    r.expect(sum(t[0].startswith("read:") for t in tries) == 2, f"the reads were not tried: {tries}")
    r.expect(r.text("tampered.txt").strip() == "", f"files the launched program wrote: {r.text('tampered.txt')}")
    r.expect(r.text("leaked-bytes.txt").strip() == "0", f"bytes of the secrets a launched program read: {r.text('leaked-bytes.txt')}")
    # The icon worker ran confined under the unit (it says so when it is not).
    r.expect("svg-worker: runs without" not in r.text("journal-kiosk.txt"), "the SVG worker ran unconfined under the unit")

    # Children: a round of probes at most, never an accumulation; none after the stop.
    running = [int(x) for x in r.lines("sleeps-running.txt")]
    r.expect(len(running) == 5 and max(running) <= 4, f"`sleep 1000` children running, once a second: {running}")
    r.note(f"children of the value commands running, five samples: {running}; "
           f"processes in kiosk.service's cgroup: {r.text('cgroup-procs.txt').strip()}")
    r.expect(r.text("sleeps-after-stop.txt").strip() == "0", f"children after the stop: {r.text('sleeps-after-stop.txt')}")

    # Hostile SVGs: check-config refuses the panic and the stall by name (exit 1, not a crash);
    # so does the reload. The data: image is the SVG worker's to decode: the kiosk's peak
    # memory does not grow by its 576 MB.
    r.expect_rc("check-hostile", 1)
    said = r.text("check-hostile.err") + r.text("check-hostile.out")
    for name in REFUSED:
        r.expect(f"{name}.svg" in said, f"check-config does not name {name}.svg:\n{said}")
    hostile = r.json("status-hostile.json")
    errors = " ".join(hostile.get("config_errors") or [])
    for name in REFUSED:
        r.expect(f"{name}.svg" in errors, f"the refused reload does not name {name}.svg: {hostile.get('config_errors')}")
    hwm = [int(r.text(f"hwm-{w}-hostile.txt").split()[1]) for w in ("before", "after")]
    r.expect(hwm[1] - hwm[0] < 64 * 1024, f"the kiosk's peak RSS grew by {hwm[1] - hwm[0]} KiB in the hostile reload")
    r.note(f"the kiosk's peak RSS before and after the hostile reload: {hwm[0]} and {hwm[1]} KiB")
    r.expect(hostile.get("screen") == "main", f"after the hostile reload the screen is {hostile.get('screen')}")
    r.expect(r.exists("after-hostile.png"), "no screenshot after the hostile reload: the loop did not answer")
    pids = {r.text(n).strip() for n in ("pid-boot.txt", "pid-after-hostile.txt", "pid-end.txt")}
    r.expect(len(pids) == 1, f"the kiosk's main PID changed: {pids}")
    r.expect(r.text("restarts.txt").strip() == "0", f"systemd restarted the kiosk {r.text('restarts.txt').strip()} times")

    # The secret.
    secret = r.json("status-secret.json")
    told = secret.get("config_errors") or []
    r.expect(len(told) == 1 and "mqtt.toml" in told[0], f"the credentials file's mistake is not told alone: {told}")
    check_said = r.text("check-secret.txt")
    r.expect("mqtt.toml" in check_said and not check_said.rstrip().endswith("exit 0"), f"check-config: {check_said}")
    for name in ("status-secret.json", "check-secret.txt", "kiosk-status.txt", "journal-kiosk.txt", "journal-all.txt"):
        r.expect(SECRET not in r.text(name), f"the password is in {name}")
    r.expect(r.exists("after-secret.png"), "no screenshot after the broken credentials")
