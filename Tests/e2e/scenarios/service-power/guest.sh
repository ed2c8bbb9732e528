# e2e-mode: systemd
# e2e-timeout: 480
# e2e-needs: kiosk
# e2e-ends: poweroff
# The menu's power items on the installed service. Without the polkit rule that scripts/install
# puts in /etc/polkit-1/rules.d, logind refuses the kiosk user: "Power off" and "Restart" leave
# the system up and the kiosk running (same PID), with the refusal in the status file and a
# banner. With the rule, "Power off" makes the kiosk's `systemctl poweroff` go through logind
# and systemd powers the machine off by itself (the host checks the console for the whole
# shutdown: e2e-ends above).
. /scenario/service.sh
RULE=/etc/polkit-1/rules.d/50-kiosk.rules
ACTIONS="power-off power-off-multiple-sessions reboot reboot-multiple-sessions"
# authz PID: pkcheck's verdict on each logind power action for that process (0: allowed).
authz() {
    for a in $ACTIONS; do
        pkcheck --action-id "org.freedesktop.login1.$a" --process "$1" > /dev/null 2>&1
        echo "$a $?"
    done
}
# wait_action ACTION: until the status file's last action is ACTION with a result (the kiosk's
# systemctl ended; "requested" until then).
wait_action() {
    e2e_wait_for 60 grep -Eq "\"action\": \"$1\", \"result\": \"(exited|killed|failed)" /run/kiosk/status.json
}
# wait_selected LABEL: until the menu's selection is LABEL.
wait_selected() { e2e_wait_for 20 grep -q "\"selected_label\": \"$1\"" /run/kiosk/status.json; }
# evidence NAME: what ran in the kiosk's cgroup and what the kiosk logged, as NAME-*.txt.
evidence() {
    systemctl status --no-pager -l kiosk.service > "$1-kiosk-status.txt" 2>&1
    journalctl -b --no-pager -o short-monotonic -u kiosk.service -u polkit.service -u systemd-logind.service > "$1-journal.txt" 2>&1
}

dpkg-query -W polkitd > polkitd.txt 2>&1
mkdir -p /etc/kiosk
cp /scenario/power.toml /etc/kiosk/kiosk.toml
service_install
ls -l "$RULE" > rule-installed.txt 2>&1
cmp "$RULE" /scenario/packaging/kiosk-power.rules >> rule-installed.txt 2>&1 && echo same-as-packaging >> rule-installed.txt

# Refused: the rule set aside, polkit (re)started without it.
mv "$RULE" /run/50-kiosk.rules.aside
systemctl restart polkit.service
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
sleep 1
pid=$(main_pid); echo "$pid" > pid-boot.txt
status > status-boot.json
shot boot
authz "$pid" > authz-without-rule.txt

e2e_uinput_start
ui add keys kb
sleep 2  # the kiosk opens the new keyboard
wait_selected "Power off" || e2e_log "Power off is not selected"
start=$(now_ms)
ui key kb KEY_ENTER
wait_action poweroff || e2e_log "no result for the refused poweroff"
echo $(( $(now_ms) - start )) > refused-poweroff-ms.txt
status > status-refused-poweroff.json
shot refused-poweroff
evidence refused-poweroff

ui key kb KEY_DOWN
wait_selected "Restart" || e2e_log "Restart is not selected"
sleep 1
ui key kb KEY_ENTER
wait_action reboot || e2e_log "no result for the refused reboot"
status > status-refused-reboot.json
shot refused-reboot
sleep 3  # time for a shutdown that should not come
{ echo "system=$(systemctl is-system-running 2>&1)"
  echo "jobs=$(systemctl list-jobs --no-pager --no-legend 2>&1 | tr '\n' ';')"
  echo "pid=$(main_pid)"
  echo "active=$(systemctl is-active kiosk.service)"; } > still-up.txt
evidence refused

# Allowed: the rule back, polkit restarted with it; "Power off" selected again.
mv /run/50-kiosk.rules.aside "$RULE"
systemctl restart polkit.service
authz "$pid" > authz-with-rule.txt
ui key kb KEY_UP
wait_selected "Power off" || e2e_log "Power off is not selected again"
sleep 1
main_pid > pid-before-poweroff.txt
status > status-before-poweroff.json
e2e_shutdown_by poweroff 120 ui key kb KEY_ENTER
