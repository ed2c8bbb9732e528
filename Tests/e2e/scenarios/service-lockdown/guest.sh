# e2e-mode: systemd
# e2e-timeout: 480
# e2e-needs: kiosk
# e2e-ends: reboot
# e2e-alone: seven Ctrl+Alt+Del within 2 s (PID 1 heard 6 of 7 beside another guest)
# A public device's keyboard: `scripts/install --lockdown` (kiosk-lockdown) turns off the magic
# SysRq keys, Ctrl+Alt+Del and its 7-in-2-s burst, and the gettys on other terminals. From a
# uinput keyboard then: Alt+SysRq+B, Ctrl+Alt+Del x7 within 2 s and Ctrl+Alt+F2 leave the same
# kiosk on screen, its selection unmoved, and the system up; the keyboard stays off the console
# (K_OFF) while an `exec` program holds the display. With the kiosk stopped (the gap of a
# restart), Ctrl+Alt+Del x7 reaches systemd and is refused, Ctrl+Alt+F2 finds no getty.
# `kiosk-lockdown remove` puts Debian's defaults back, and in that gap one Ctrl+Alt+Del then
# reboots the machine (the host checks the reboot).
. /scenario/service.sh

# readings NAME: what decides the chords' fate, as KEY=VALUE lines.
readings() {
    { echo "sysrq=$(cat /proc/sys/kernel/sysrq)"
      echo "cad_burst=$(systemctl show -p CtrlAltDelBurstAction --value)"
      echo "cad_target=$(systemctl show -p Id --value ctrl-alt-del.target) $(systemctl show -p LoadState --value ctrl-alt-del.target)"
      echo "nautovts=$(busctl get-property org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager NAutoVTs 2>&1)"
    } > "readings-$1.txt"
}
# kbmode: the keyboard mode of tty1 (KDGKBMODE; K_OFF is 4), with perl-base's ioctl.
kbmode() { perl -e 'open(my $t, "<", "/dev/tty1") or die "$!"; my $m = pack("i", -1); ioctl($t, 0x4B44, $m) or die "$!"; print unpack("i", $m), "\n"' 2>&1; }
active_vt() { cat /sys/class/tty/tty0/active; }
# vt_activate N: chvt without kbd's chvt (VT_ACTIVATE, then VT_WAITACTIVE).
vt_activate() { perl -e 'open(my $t, "+<", "/dev/tty1") or die "$!"; ioctl($t, 0x5606, $ARGV[0]) or die "$!"; ioctl($t, 0x5607, $ARGV[0]) or die "$!"' "$1"; }
# cad_x7 NAME: Ctrl+Alt+Del seven times in one kiosk-uinput command (no round trips between the
# presses), its duration and PID 1's journal meanwhile in cad-NAME-ms.txt and journal-cad-NAME.txt.
cad_x7() {
    _since=$(date '+%Y-%m-%d %H:%M:%S')
    _start=$(now_ms)
    ui keydown kb KEY_LEFTCTRL KEY_LEFTALT
    ui key kb KEY_DELETE KEY_DELETE KEY_DELETE KEY_DELETE KEY_DELETE KEY_DELETE KEY_DELETE
    ui keyup kb KEY_LEFTALT KEY_LEFTCTRL
    echo $(( $(now_ms) - _start )) > "cad-$1-ms.txt"
    sleep 3
    journalctl -b --no-pager -o short-monotonic --since "$_since" _PID=1 > "journal-cad-$1.txt" 2>&1
}
# pulse: a snapshot of the system and the kiosk after a chord.
pulse() {
    sleep 3
    echo "$1 pid=$(main_pid) system=$(systemctl is-system-running 2>&1) vt=$(active_vt) selection=$(status_number selection) jobs=$(systemctl list-jobs --no-legend 2>&1 | grep -vc kiosk-e2e)" >> pulse.txt
    e2e_log "lockdown: $(tail -n 1 pulse.txt)"
}

readings debian
e2e_run install /scenario/scripts/install --binary /usr/local/bin/kiosk --lockdown
readings locked
# Without the lockdown in force, Alt+SysRq+B below would reset the machine and lose the results.
if [ "$(cat /proc/sys/kernel/sysrq)" != 0 ]; then
    e2e_log "lockdown: kernel.sysrq is $(cat /proc/sys/kernel/sysrq) after scripts/install --lockdown; no chords"
    exit 1
fi
/usr/local/sbin/kiosk-lockdown status > lockdown-status.txt 2>&1; echo "rc=$?" >> lockdown-status.txt
cp /scenario/lockdown.toml /etc/kiosk/kiosk.toml
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
sleep 1
pid=$(main_pid); echo "$pid" > pid.txt
echo "$(kbmode)" > kbmode-menu.txt
e2e_uinput_start
ui add keys kb
sleep 2
pulse start

# Alt+SysRq+B: the kernel's emergency reboot, unless kernel.sysrq says no.
ui keydown kb KEY_LEFTALT KEY_SYSRQ
ui key kb KEY_B
ui keyup kb KEY_SYSRQ KEY_LEFTALT
pulse sysrq-b

# Ctrl+Alt+Del seven times within 2 s: the kernel does not pass it on from a K_OFF keyboard.
cad_x7 menu
pulse ctrl-alt-del-x7
# Ctrl+Alt+F2: a console switch, which the kernel does not do for a K_OFF keyboard.
ui keydown kb KEY_LEFTCTRL KEY_LEFTALT
ui key kb KEY_F2
ui keyup kb KEY_LEFTALT KEY_LEFTCTRL
pulse ctrl-alt-f2

# An exec program holds the display (the first item): the keyboard is still off the console,
# and Ctrl+Alt+F2 still switches nothing.
ui key kb KEY_ENTER
e2e_wait_for 30 test -e /dev/shm/handover || e2e_log "the exec program did not start"
echo "$(kbmode)" > kbmode-handover.txt
ui keydown kb KEY_LEFTCTRL KEY_LEFTALT
ui key kb KEY_F2
ui keyup kb KEY_LEFTALT KEY_LEFTCTRL
active_vt > vt-handover.txt
e2e_wait_for 30 grep -q 'exited with status 0' /run/kiosk/status.json || e2e_log "the exec program did not finish"
pulse after-handover
echo "$(kbmode)" > kbmode-after.txt
status > status-end.json
shot end
service_journal -u kiosk.service

# The gap a restart leaves (a crash, an upgrade): no kiosk holds tty1, whose keyboard is the
# console's again, and Ctrl+Alt+Del reaches systemd. Locked down, seven presses in 2 s do nothing.
systemctl stop kiosk.service
echo "$(kbmode)" > kbmode-stopped.txt
cad_x7 stopped
ui keydown kb KEY_LEFTCTRL KEY_LEFTALT
ui key kb KEY_F2
ui keyup kb KEY_LEFTALT KEY_LEFTCTRL
sleep 3
{ echo "vt=$(active_vt)"; echo "autovt=$(systemctl is-active autovt@tty2.service getty@tty2.service | tr '\n' ' ')"
  echo "system=$(systemctl is-system-running 2>&1)"; echo "jobs=$(systemctl list-jobs --no-legend 2>&1 | grep -vc kiosk-e2e)"; } > gap.txt
vt_activate 1
systemctl start --no-block kiosk.service
service_wait_ready 90 "$pid" || e2e_log "kiosk.service did not come back"

# Without the lockdown: Debian's defaults back, and in the same gap one Ctrl+Alt+Del reboots.
/usr/local/sbin/kiosk-lockdown remove > lockdown-remove.txt 2>&1; echo "rc=$?" >> lockdown-remove.txt
readings removed
ls /etc/sysctl.d /etc/systemd > etc-after-remove.txt 2>&1
systemctl stop kiosk.service
cad_once() {
    ui keydown kb KEY_LEFTCTRL KEY_LEFTALT
    ui key kb KEY_DELETE
    ui keyup kb KEY_LEFTALT KEY_LEFTCTRL
}
e2e_shutdown_by reboot 120 cad_once
