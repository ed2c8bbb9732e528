# Helpers for scenario guest scripts (sourced before guest.sh; busybox sh).
# The working directory is /results: everything written there comes back to the host.
# The payload binaries (kiosk, kiosk-uinput, ...) are on PATH.

# e2e_log MSG: a line on the serial console (and in guest.log).
e2e_log() { echo "e2e: $*"; }

# e2e_run NAME CMD...: runs CMD to completion; NAME.out, NAME.err and NAME.rc in /results.
e2e_run() {
    _n=$1; shift
    "$@" > "/results/$_n.out" 2> "/results/$_n.err"
    _rc=$?
    echo "$_rc" > "/results/$_n.rc"
    e2e_log "$_n: exit $_rc: $*"
    return 0
}

# e2e_bg NAME CMD...: starts CMD in the background (NAME.out, NAME.err, NAME.pid).
e2e_bg() {
    _n=$1; shift
    "$@" > "/results/$_n.out" 2> "/results/$_n.err" &
    echo $! > "/results/$_n.pid"
    e2e_log "$_n: started pid $!: $*"
}

# e2e_pid NAME: the pid of a background command.
e2e_pid() { cat "/results/$1.pid"; }

# e2e_alive NAME: true while the background command runs.
e2e_alive() { kill -0 "$(e2e_pid "$1")" 2>/dev/null; }

# e2e_stop NAME [SIGNAL [SECONDS]]: signals a background command (default TERM) and waits
# for it; NAME.rc gets its exit status, or "timeout" if it had to be killed.
e2e_stop() {
    _n=$1; _sig=${2:-TERM}; _t=${3:-10}; _p=$(e2e_pid "$1")
    kill -"$_sig" "$_p" 2>/dev/null
    e2e_wait_exit "$_n" "$_t"
}

# e2e_wait_exit NAME [SECONDS]: waits for a background command to exit by itself.
e2e_wait_exit() {
    _n=$1; _t=${2:-10}; _p=$(e2e_pid "$1"); _i=0
    while kill -0 "$_p" 2>/dev/null && [ "$_i" -lt $((_t * 10)) ]; do
        # A zombie still answers kill -0; the state in /proc tells it has exited.
        grep -q '^State:.*Z' "/proc/$_p/status" 2>/dev/null && break
        sleep 0.1; _i=$((_i + 1))
    done
    if kill -0 "$_p" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$_p/status" 2>/dev/null; then
        kill -KILL "$_p" 2>/dev/null; wait "$_p" 2>/dev/null
        echo timeout > "/results/$_n.rc"
        e2e_log "$_n: did not exit within ${_t}s, killed"
        return 1
    fi
    wait "$_p"; _rc=$?
    echo "$_rc" > "/results/$_n.rc"
    e2e_log "$_n: exit $_rc"
}

# e2e_wait_for SECONDS CMD...: polls CMD every 0.1 s until it succeeds; false on timeout.
e2e_wait_for() {
    _t=$1; shift; _i=0
    until "$@" >/dev/null 2>&1; do
        _i=$((_i + 1)); [ "$_i" -ge $((_t * 10)) ] && { e2e_log "timed out after ${_t}s: $*"; return 1; }
        sleep 0.1
    done
}

# e2e_until_same SECONDS NAME REFERENCE SHOT...: runs SHOT (which writes /results/NAME.png)
# until that picture is byte-equal to REFERENCE or SECONDS have passed; the last one stays. The
# event a scenario waits for (a value read, a notification's end) reaches the panel a frame or an
# animation later, which a loaded TCG host can stretch past any fixed sleep. REFERENCE is a
# `kiosk render` (the same PNG encoder, so equal pixels are equal bytes); the host still
# compares the last picture pixel by pixel and says where they differ.
e2e_until_same() {
    _us_t=$1 _us_n=$2 _us_ref=$3; shift 3
    _us_end=$(( $(date +%s) + _us_t )); _us_i=0
    while :; do
        _us_i=$((_us_i + 1))
        "$@"
        cmp -s "/results/$_us_n.png" "$_us_ref" && { e2e_log "$_us_n: equal to $_us_ref at shot $_us_i"; return 0; }
        [ "$(date +%s)" -lt "$_us_end" ] || { e2e_log "$_us_n: still not equal to $_us_ref after $_us_i shots"; return 1; }
        sleep 0.5
    done
}

# e2e_save PATH [NAME]: copies a guest file into /results (missing files are noted, not fatal).
e2e_save() {
    cp -r "$1" "/results/${2:-$(basename "$1")}" 2>/dev/null || e2e_log "not saved (missing): $1"
}

# uinput devices through one long-running kiosk-uinput fed by a FIFO.
# ui CMD...: runs one kiosk-uinput command and waits until it has been done.
E2E_UI_FIFO=/run/kiosk-uinput.fifo
e2e_uinput_start() {
    e2e_bg uinput kiosk-uinput --fifo "$E2E_UI_FIFO"
    e2e_wait_for 10 test -p "$E2E_UI_FIFO"
}
# e2e_uinput_stop: removes all its devices and waits for it to exit (uinput.rc).
e2e_uinput_stop() {
    timeout 10 sh -c 'echo quit > "$1"' quit "$E2E_UI_FIFO"
    e2e_wait_exit uinput 10
}
_ui_seq=0
ui() {
    [ "$1" = quit ] && { e2e_uinput_stop; return; }
    _ui_seq=$((_ui_seq + 1)); _m=/run/kiosk-uinput.mark.$_ui_seq
    # Opening the FIFO blocks until kiosk-uinput has it open: never for ever.
    e2e_alive uinput || { e2e_log "ui: kiosk-uinput is not running ($(cat /results/uinput.err 2>/dev/null))"; return 1; }
    timeout 10 sh -c 'printf "%s\nmark %s\n" "$1" "$2" > "$3"' ui "$*" "$_m" "$E2E_UI_FIFO" ||
        { e2e_log "ui: could not hand '$*' to kiosk-uinput within 10 s"; return 1; }
    e2e_wait_for 60 test -e "$_m" || { e2e_log "ui: '$*' not done"; return 1; }
}

# e2e_tap_keypad KEY [PAUSE]: taps a key of the PIN keypad (1-9, 0, del, ok) at 800x480, where
# it is a 3-column list, as touch coordinates on the 1024x768 touchscreen "ts"; then waits PAUSE
# seconds (0.3). e2e_tap_pin PIN [PAUSE]: each digit, then OK.
e2e_tap_keypad() {
    case $1 in
        1) ui tap ts 177 157 ;; 2) ui tap ts 512 157 ;; 3) ui tap ts 847 157 ;;
        4) ui tap ts 177 280 ;; 5) ui tap ts 512 280 ;; 6) ui tap ts 847 280 ;;
        7) ui tap ts 177 403 ;; 8) ui tap ts 512 403 ;; 9) ui tap ts 847 403 ;;
        del) ui tap ts 177 526 ;; 0) ui tap ts 512 526 ;; ok) ui tap ts 847 526 ;;
        *) e2e_log "e2e_tap_keypad: no key $1"; return 1 ;;
    esac
    sleep "${2:-0.3}"
}
e2e_tap_pin() {
    for _k in $(echo "$1" | sed 's/./& /g') ok; do e2e_tap_keypad "$_k" "${2:-0.3}"; done
}

# e2e_event_node NAME: /dev/input/eventN of the input device called NAME.
e2e_event_node() {
    for d in /sys/class/input/event*; do
        [ "$(cat "$d/device/name" 2>/dev/null)" = "$1" ] && { echo "/dev/input/${d##*/}"; return 0; }
    done
    return 1
}

# e2e_display STATE: a display unplugged (off) and plugged again (detect, or on) as far as
# vkms on 6.1 allows: the connector's state is forced through sysfs, which sends no uevent,
# so a synthetic "change" uevent with HOTPLUG=1 on card0 follows, as a real hotplug sends.
e2e_display() {
    echo "$1" > /sys/class/drm/card0-Virtual-1/status || return 1
    echo "change 00000000-0000-0000-0000-000000000000 HOTPLUG=1" > /sys/class/drm/card0/uevent
}

# e2e_as USER CMD...: runs CMD as USER (with USER's groups), e.g. the unprivileged "kiosk".
e2e_as() {
    _u=$1; shift
    su -s /bin/sh "$_u" -c "$(printf "'%s' " "$@")"
}

# What goes next to the scenario's own files, and the tar of /results onto the results disk
# (/dev/vda); used by run-scenario at the end and by e2e_shutdown_by before the shutdown.
e2e_collect() {
    dmesg > /results/dmesg.txt
    udevadm info --export-db > /results/udev-db.txt 2>&1
    cat /proc/bus/input/devices > /results/input-devices.txt
    if [ -d /run/systemd/system ]; then
        journalctl -b --no-pager -o short-monotonic > /results/journal.txt 2>&1
        systemctl --failed --no-pager > /results/systemd-failed.txt 2>&1
    fi
}
e2e_write_results() {
    if tar -cf /dev/vda -C /results . && sync; then
        echo "KIOSK-E2E: RESULTS-WRITTEN $(du -sk /results | cut -f1)KiB"
    else
        echo "KIOSK-E2E: FATAL writing results to /dev/vda failed"
        return 1
    fi
}

# e2e_shutdown_by KIND SECONDS CMD...: for a scenario whose system powers off or reboots by
# itself (header `e2e-ends: poweroff|reboot`, systemd mode), as the last thing guest.sh does.
# Writes the results so far onto the results disk (nothing later comes back), lets the
# shutdown stop the scenario's unit without the test bed's own forced power-off, streams the
# journal to the serial console until the end, says AWAITING-SHUTDOWN KIND, runs CMD (what
# should bring the system down) and waits SECONDS. The host then reads on the serial console
# that systemd went through KIND's whole shutdown. If the system is still up after SECONDS,
# the test bed's power-off is put back and it returns 1 (the host fails the scenario).
E2E_UNIT_DROPIN=/run/systemd/system/kiosk-e2e.service.d
e2e_shutdown_by() {
    _sd_kind=$1 _sd_wait=$2; shift 2  # own names: CMD may run helpers that set _t
    [ -d /run/systemd/system ] || { e2e_log "e2e_shutdown_by: systemd mode only"; return 1; }
    e2e_collect
    e2e_write_results || return 1
    mkdir -p "$E2E_UNIT_DROPIN"
    printf '[Unit]\nSuccessAction=none\nFailureAction=none\n' > "$E2E_UNIT_DROPIN/shutdown.conf"
    systemctl daemon-reload
    # Outside this unit's cgroup and without default dependencies: it lasts until
    # systemd-shutdown's final kill, past everything the shutdown logs. It streams from a
    # cursor taken now, not from whenever journalctl gets going: under TCG that can be after
    # CMD's first lines (a CI run once lost the kiosk's "asked systemd to poweroff" so).
    _sd_cursor=$(journalctl -n 1 --show-cursor --no-pager -q 2>/dev/null | sed -n 's/^-- cursor: //p')
    _sd_from="-n 0"  # the cursor has no spaces: s=...;i=...;b=...
    [ -n "$_sd_cursor" ] && _sd_from="--no-tail --after-cursor=$_sd_cursor"
    # shellcheck disable=SC2086  # _sd_from is two words
    systemd-run --quiet --unit=kiosk-e2e-journal -p DefaultDependencies=no -p StandardOutput=tty \
        -p TTYPath="/dev/${E2E_CONSOLE:-ttyS0}" journalctl -f $_sd_from -o short-monotonic --no-pager ||
        e2e_log "e2e_shutdown_by: no journal on the console"
    echo "KIOSK-E2E: AWAITING-SHUTDOWN $_sd_kind"
    "$@"
    sleep "$_sd_wait"  # the shutdown's SIGTERM ends this
    e2e_log "e2e_shutdown_by: no $_sd_kind within ${_sd_wait}s"
    systemctl stop kiosk-e2e-journal.service
    rm -f "$E2E_UNIT_DROPIN/shutdown.conf"
    systemctl daemon-reload
    return 1
}

# e2e_ssh_up (`e2e-net: ssh`, run by run-scenario before guest.sh): the network card qemu's user
# networking serves (10.0.2.15, fixed: no DHCP wait), the host's key for root, and sshd, whose
# unit the image masks so that the other scenarios do not start it.
e2e_ssh_up() {
    mkdir -p /etc/systemd/network /root/.ssh
    printf '[Match]\nType=ether\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\n' > /etc/systemd/network/10-kiosk-e2e.network
    install -m 0600 /e2e/ssh/authorized_keys /root/.ssh/authorized_keys
    systemctl unmask ssh.service ssh.socket >/dev/null 2>&1
    systemctl start systemd-networkd.service ssh.service || { echo "KIOSK-E2E: FATAL ssh for the host did not start"; return 1; }
    e2e_log "sshd up: $(systemctl show -p MainPID --value ssh.service)"
}

# e2e_host NAME [SECONDS]: hands over to the host (the scenario's host.py, `with h.step(NAME)`)
# and waits up to SECONDS (default 600) for it to finish; returns the host's status (0: the
# step went through; 1 also when host.py gave up), or 124 when the host never answered.
e2e_host() {
    _h_name=$1 _h_limit=${2:-600}
    mkdir -p /run/kiosk-e2e-host
    rm -f "/run/kiosk-e2e-host/$_h_name"
    echo "KIOSK-E2E: HOST-STEP $_h_name"
    _h_i=0
    until [ -f "/run/kiosk-e2e-host/$_h_name" ]; do
        [ -f /run/kiosk-e2e-host/ABORTED ] && { e2e_log "the host gave up before $_h_name"; return 1; }
        _h_i=$((_h_i + 1)); [ "$_h_i" -ge $((_h_limit * 5)) ] && { e2e_log "the host did not finish $_h_name within ${_h_limit}s"; return 124; }
        sleep 0.2
    done
    return "$(cat "/run/kiosk-e2e-host/$_h_name")"
}
