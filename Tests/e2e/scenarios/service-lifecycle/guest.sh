# e2e-mode: systemd
# e2e-timeout: 420
# e2e-needs: kiosk
# e2e-figures: kill -9 to READY=1, reload to a new generation
# The kiosk as a service, installed by scripts/install: enabled, it comes up with
# multi-user.target and puts the menu on screen (getty@tty1 makes way); `systemctl reload`
# applies a new config in the same process; `kill -9` is followed by a restart and the menu
# back; `systemctl stop` gives the console its framebuffer back; the journal keeps the levels.
. /scenario/service.sh

e2e_save /sys/kernel/debug/dri/0/state dri-state-console.txt
systemctl is-active getty@tty1.service > getty-before.txt 2>&1
service_install
systemctl is-enabled kiosk.service > enabled.txt 2>&1
id kiosk > user.txt 2>&1
ls -l /etc/kiosk > etc-kiosk.txt 2>&1

# Boot: the enabled unit comes with multi-user.target.
start=$(now_ms)
service_boot || e2e_log "kiosk.service did not become active"
echo $(( $(now_ms) - start )) > boot-to-ready-ms.txt
# Boot to first flip, on the kernel's monotonic clock (0 = the kernel's start): systemd's own
# start, the kiosk's exec, and its READY=1, which it sends when the first flip has completed.
sd_ms() { _v=$(systemctl show -p "$@" --value); echo $(( ${_v:-0} / 1000 )); }
echo "userspace_ms=$(sd_ms UserspaceTimestampMonotonic) exec_ms=$(sd_ms ExecMainStartTimestampMonotonic kiosk.service)" \
    "first_flip_ms=$(sd_ms ActiveEnterTimestampMonotonic kiosk.service)" > first-flip.txt
systemctl status --no-pager kiosk.service > status-boot.txt 2>&1
systemctl is-active getty@tty1.service > getty-after.txt 2>&1
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
sleep 1
pid=$(main_pid); echo "$pid" > pid-boot.txt
status > status-boot.json
systemctl show -p StatusText --value kiosk.service > status-text.txt
e2e_run render-boot kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /results/render-boot.png
e2e_until_same 15 boot /results/render-boot.png shot boot
e2e_save /sys/kernel/debug/dri/0/state dri-state-kiosk.txt
grep -E '^(Uid|Gid|Groups|CapEff|NoNewPrivs|Seccomp):' "/proc/$pid/status" > process-credentials.txt
getent group video input audio kiosk > groups.txt
systemd-analyze security --no-pager kiosk.service > security.txt 2>&1

# Reload: a new config applied by `systemctl reload` (SIGHUP), same process. The new text is
# bind-mounted over the config from outside, which the kiosk's file watch does not see, so
# the reload is what applies it.
gen=$(status_number generation)
sed 's/^title = "Kiosk"/title = "Reloaded"/' /scenario/systemd/kiosk.toml > /run/kiosk-reloaded.toml
mount --bind /run/kiosk-reloaded.toml /etc/kiosk/kiosk.toml
sleep 1
status_number generation > generation-before-reload.txt
start=$(now_ms)
e2e_run reload systemctl reload kiosk.service
e2e_wait_for 30 sh -c '[ "$(sed -n "s/.*\"generation\": \([0-9]*\).*/\1/p" /run/kiosk/status.json)" -gt '"$gen"' ]'
echo $(( $(now_ms) - start )) > reload-ms.txt
echo "$gen $(status_number generation)" > generations.txt
main_pid > pid-after-reload.txt
e2e_run render-reloaded kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /results/render-reloaded.png
e2e_until_same 15 reloaded /results/render-reloaded.png shot reloaded

# kill -9: systemd restarts it; the menu is back when a new process wrote the status file
# and when systemd has READY=1 (first frame flipped) from it. The READY time is systemd's own
# (ActiveEnterTimestampMonotonic) against the monotonic clock at the kill, so the polling below
# (systemctl under TCG costs 0.1-0.3 s a call, on the same two vCPUs) is not counted in it.
start=$(now_ms)
kill_mono_us=$(awk '{ printf "%d", $1 * 1000000 }' /proc/uptime)
kill -9 "$pid"
e2e_wait_for 60 sh -c 'p=$(sed -n "s/.*\"pid\": \([0-9]*\).*/\1/p" /run/kiosk/status.json) && [ -n "$p" ] && [ "$p" != '"$pid"' ]'
echo $(( $(now_ms) - start )) > restart-status-ms.txt
service_wait_ready 60 "$pid"
echo $(( $(now_ms) - start )) > restart-ready-polled-ms.txt
ready_mono_us=$(systemctl show -p ActiveEnterTimestampMonotonic --value kiosk.service)
echo $(( (ready_mono_us - kill_mono_us) / 1000 )) > restart-ready-ms.txt
main_pid > pid-after-kill.txt
systemctl show -p NRestarts --value kiosk.service > restarts.txt
e2e_until_same 15 restarted /results/render-reloaded.png shot restarted

# Stop: the console's framebuffer is back on the CRTC.
e2e_run stop systemctl stop kiosk.service
sleep 1
e2e_save /sys/kernel/debug/dri/0/state dri-state-stopped.txt
systemctl show -p ActiveState -p Result -p ExecMainStatus kiosk.service > stopped.txt
systemctl is-active getty@tty1.service > getty-stopped.txt 2>&1
service_journal -u kiosk.service
journalctl -b --no-pager -u kiosk.service -o json --output-fields=PRIORITY,MESSAGE,_PID > journal-kiosk.json 2>&1

# Uninstall: service gone, user gone, config kept.
umount /etc/kiosk/kiosk.toml
e2e_run uninstall /scenario/scripts/uninstall
{ ls /usr/local/bin/kiosk /usr/local/lib/systemd/system/kiosk.service /etc/polkit-1/rules.d/50-kiosk.rules /etc/kiosk/kiosk.toml \
    /usr/local/sbin/kiosk-backlight-access /usr/local/sbin/kiosk-lockdown 2>&1
  systemctl is-enabled kiosk.service 2>&1; getent passwd kiosk || echo "no user kiosk"; } > after-uninstall.txt
