# Shared by the service-* scenarios (systemd mode): the kiosk installed by scripts/install
# from this scenario's copy of the repository's scripts/, systemd/ and packaging/, and what
# systemd and the kiosk say about it.
export SYSTEMD_PAGER= SYSTEMD_COLORS=0

# service_install: scripts/install with the payload binary (the VM has no Swift to build).
service_install() {
    e2e_run install /scenario/scripts/install --binary /usr/local/bin/kiosk
}
# service_boot: what a boot does once the unit is enabled: multi-user.target pulls it in.
service_boot() {
    timeout 30 systemctl start --no-block multi-user.target || e2e_log "systemctl start multi-user.target: exit $?"
    service_wait_ready 90 || { systemctl list-jobs --no-pager > /results/jobs-at-boot.txt 2>&1; return 1; }
}
# service_wait_ready SECONDS [NOT_PID]: the service is active (READY=1 came) with a main PID
# other than NOT_PID.
service_wait_ready() {
    _deadline=$(( $(date +%s) + $1 ))
    until [ "$(timeout 5 systemctl show -p ActiveState --value kiosk.service)" = active ] &&
          _p=$(timeout 5 systemctl show -p MainPID --value kiosk.service) && [ "$_p" != 0 ] && [ "$_p" != "${2:-0}" ]; do
        [ "$(date +%s)" -lt "$_deadline" ] || { e2e_log "kiosk.service not ready (new main PID) within $1 s"; return 1; }
        sleep 0.1
    done
}
main_pid() { timeout 5 systemctl show -p MainPID --value kiosk.service; }
status() { cat /run/kiosk/status.json 2>/dev/null; }
# status_number KEY: a number from the status file.
status_number() { status | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p"; }
now_ms() { date +%s%3N; }
fd_count() { ls "/proc/$1/fd" | wc -l; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
# shot NAME: the kiosk's screenshot (SIGUSR1 to the main process) as NAME.png.
shot() {
    rm -f /run/kiosk/screenshot.png
    systemctl kill -s USR1 --kill-who=main kiosk.service
    e2e_wait_for 30 test -s /run/kiosk/screenshot.png && sleep 0.5 && cp /run/kiosk/screenshot.png "/results/$1.png"
}
# replace_config SED_EXPR: the config rewritten the way a fleet pushes one (temp file + rename).
replace_config() {
    sed "$1" /scenario/systemd/kiosk.toml > /etc/kiosk/.kiosk.toml.new && mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
}
service_journal() { journalctl -b --no-pager -o short-monotonic "$@" > "/results/${JOURNAL_NAME:-journal-kiosk}.txt" 2>&1; }
