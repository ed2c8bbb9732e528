# e2e-mode: systemd
# e2e-timeout: 360
# e2e-needs: kiosk
# e2e-ends: reboot
# The menu's "Restart" item on the installed service with the polkit rule of scripts/install:
# the kiosk's `systemctl reboot` goes through logind and systemd reboots the machine (qemu runs
# with -no-reboot, so the reboot ends it; the host tells it from a poweroff on the console).
# service-power covers the refusal without the rule and the poweroff.
. /scenario/service.sh

mkdir -p /etc/kiosk
cp /scenario/power.toml /etc/kiosk/kiosk.toml
service_install
ls -l /etc/polkit-1/rules.d/50-kiosk.rules > rule-installed.txt 2>&1
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
main_pid > pid-boot.txt
e2e_uinput_start
ui add keys kb
sleep 2  # the kiosk opens the new keyboard
ui key kb KEY_DOWN
e2e_wait_for 20 grep -q '"selected_label": "Restart"' /run/kiosk/status.json || e2e_log "Restart is not selected"
sleep 1
status > status-before-reboot.json
e2e_shutdown_by reboot 120 ui key kb KEY_ENTER
