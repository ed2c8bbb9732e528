# e2e-mode: systemd
# e2e-timeout: 300
# e2e-needs: kiosk
# The kiosk as it ships: kiosk-freeze-thread stops its main thread (the event loop) with ptrace
# while its other threads run on, WATCHDOG=1 stops, systemd's watchdog kills it and
# Restart=always brings the menu back in a new process.
. /scenario/service.sh

sleep 3
systemctl is-active getty@tty1.service > getty-before.txt 2>&1
service_install
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
pid=$(main_pid); echo "$pid" > pid-before.txt
systemctl show -p WatchdogUSec --value kiosk.service > watchdog-usec.txt
# A few watchdog periods with the loop healthy: no restart.
sleep 10
main_pid > pid-healthy.txt
start=$(now_ms)
kiosk-freeze-thread "$pid" > freeze.txt 2>&1 &
service_wait_ready 60 "$pid"
echo $(( $(now_ms) - start )) > hang-to-ready-ms.txt
main_pid > pid-after.txt
systemctl show -p NRestarts --value kiosk.service > restarts.txt
sleep 1
status > status-after.json
shot after-watchdog
service_journal -u kiosk.service
