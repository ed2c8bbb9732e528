# e2e-mode: systemd
# e2e-timeout: 480
# e2e-needs: kiosk
# e2e-figures: D-Bus call-to-flip latencies
# The control API on the installed service: busctl from root and from a member of kiosk-control
# shows a screen, notifies and sets a value only the API sets (before: its placeholder; after:
# the screenshot equal to `kiosk render --value`), a value read from a command is refused;
# another user is refused by the bus policy; a screen behind a PIN stays locked, so do its items
# (a toggle, a spawn; a value with api_when_locked = true is set) and the screen behind it;
# `kiosk ctl` works.
. /scenario/service.sh
B="org.kiosk.Kiosk1 /org/kiosk/Kiosk1 org.kiosk.Kiosk1"
# call NAME USER METHOD ARGS...: busctl as USER, its output and exit status in NAME.txt.
call() {
    _n=$1 _u=$2; shift 2
    if [ "$_u" = root ]; then busctl call $B "$@" > "$_n.txt" 2>&1; else setpriv --reuid="$_u" --regid="$_u" --init-groups busctl call $B "$@" > "$_n.txt" 2>&1; fi
    echo "exit $?" >> "$_n.txt"
}
as() { _u=$1; shift; setpriv --reuid="$_u" --regid="$_u" --init-groups "$@"; }

mkdir -p /etc/kiosk
cp /scenario/control.toml /etc/kiosk/kiosk.toml
service_install
systemd-sysusers > sysusers.txt 2>&1
# The bus reads the new policy file (it also notices by itself; this makes it certain).
systemctl reload dbus.service > dbus-reload.txt 2>&1
useradd --system --no-create-home --groups kiosk-control gardener
useradd --system --no-create-home passerby
id gardener passerby > users.txt 2>&1
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"control_api": "ready"' /run/kiosk/status.json || e2e_log "the control API is not ready"
status > status-boot.json
# Before any set: the api-only value shows its placeholder (the command's value is read).
e2e_wait_for 20 grep -q '"id": "tank", "state": "ok"' /run/kiosk/status.json || e2e_log "the tank value was not read"
e2e_run render-before kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --value tank=80 --out /results/render-before.png
e2e_until_same 15 before /results/render-before.png shot before

call root-show root ShowScreen s schedule
e2e_wait_for 10 grep -q '"screen": "schedule"' /run/kiosk/status.json || e2e_log "ShowScreen from root did nothing"
call gardener-home gardener GoHome
e2e_wait_for 10 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "GoHome from the group did nothing"
call passerby-show passerby ShowScreen s schedule
call passerby-notify passerby Notify sds "not allowed" 5 info
call root-locked root ShowScreen s service
# The gate: the locked screen's items and the screen behind it are refused; the one item that
# says api_when_locked = true is set.
call root-locked-toggle root SetToggle sb pump true
call gardener-locked-press gardener Press s flush
call root-behind root ShowScreen s danger
call gardener-locked-set gardener SetValue ss calibration 0.5
as gardener kiosk ctl press flush > ctl-locked-press.txt 2>&1; echo "exit $?" >> ctl-locked-press.txt
call gardener-press gardener Press s log-visit
call gardener-set gardener SetValue ss soil 63.4
call gardener-set-read gardener SetValue ss tank 10
call root-bad-type root ShowScreen i 7
call gardener-notify gardener Notify sds "Watering starts in 5 minutes" 2 warning
sleep 0.5
status > status-notified.json
# The notification gone (2 s), the value on screen: the same picture as a render with it.
e2e_run render-set kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --value soil=63.4 --value tank=80 --out /results/render-set.png
sleep 2
status > status-set.json
e2e_until_same 15 set /results/render-set.png shot set

# kiosk ctl, from the group.
as gardener kiosk ctl show schedule > ctl-show.txt 2>&1; echo "exit $?" >> ctl-show.txt
as gardener kiosk ctl state --json > ctl-state.json 2> ctl-state.err; echo "exit $?" >> ctl-state.err
as passerby kiosk ctl home > ctl-passerby.txt 2>&1; echo "exit $?" >> ctl-passerby.txt
as gardener kiosk ctl show service > ctl-locked.txt 2>&1; echo "exit $?" >> ctl-locked.txt

# D-Bus call to the screen shown: ShowScreen, then the status file's screen (written at the end of
# the pass that drew its first frame), 10 times, busctl's start-up included. The kiosk's own
# figure (call taken off the bus to the flip that shows it) comes from its log at the stop: 20
# GoHome and 20 ShowScreen calls, and 10 SetValue calls of new values.
for i in $(seq 20); do
    busctl call $B GoHome > /dev/null; e2e_wait_for 10 grep -q '"screen": "main"' /run/kiosk/status.json
    t0=$(now_ms); busctl call $B ShowScreen s schedule > /dev/null
    e2e_wait_for 10 grep -q '"screen": "schedule"' /run/kiosk/status.json
    [ "$i" -le 10 ] && echo $(( $(now_ms) - t0 )) >> latency-ms.txt
done
busctl call $B GoHome > /dev/null; e2e_wait_for 10 grep -q '"screen": "main"' /run/kiosk/status.json
for i in $(seq 10); do
    busctl call $B SetValue ss soil "$((40 + i))" > /dev/null
    sleep 1
done
ls /dev/shm > marker-files.txt
timeout 30 systemctl stop kiosk.service
JOURNAL_NAME=journal-kiosk service_journal -u kiosk.service
