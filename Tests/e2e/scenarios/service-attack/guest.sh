# e2e-mode: systemd
# e2e-timeout: 420
# e2e-needs: kiosk
# The installed service (its sandbox, seccomp filter and watchdog) attacked from every side it
# takes input on, as #31 lists them: a broker's client presses, switches and opens what is behind
# the PIN, and so does busctl; a value command forks children and times out every second, another
# leaves a child as it ends; a reload brings three hostile SVGs (a librsvg panic, a CPU stall, a
# 12000x12000 image in a data: URI); a credentials file with an unquoted password. The kiosk
# stays the same process and keeps drawing, nothing behind the lock runs, no child outlives its
# command, and the password is nowhere: journal, status, check-config, kiosk status.
. /scenario/service.sh
P=lab/panel
B="org.kiosk.Kiosk1 /org/kiosk/Kiosk1 org.kiosk.Kiosk1"
SECRET=hunter2xyz
mpub() { mosquitto_pub -h 127.0.0.1 "$@"; }
sleeps() { pgrep -c -f '^sleep 1000$' || true; }
# refused_more N: the status counts more refused reloads than N.
refused_more() { [ "$(status_number reloads_refused)" -gt "$1" ]; }
# credentials TEXT: the credentials file, as the kiosk's own (0600, as the README asks).
credentials() { printf '%s\n' "$@" > /etc/kiosk/mqtt.toml; chown kiosk: /etc/kiosk/mqtt.toml; chmod 600 /etc/kiosk/mqtt.toml; }
ip link set lo up 2>/dev/null || true

e2e_bg broker mosquitto -c /scenario/mosquitto.conf
mkdir -p /etc/kiosk
cp /scenario/attack.toml /etc/kiosk/kiosk.toml
service_install
# The bus reads the kiosk's policy file (it also notices by itself; this makes it certain).
systemctl reload dbus.service > dbus-reload.txt 2>&1
credentials 'username = "lab"' 'password = "right-one"'
service_boot || e2e_log "kiosk.service did not become active"
pid=$(main_pid)
echo "$pid" > pid-boot.txt
e2e_wait_for 60 grep -q '"state": "connected"' /run/kiosk/status.json || e2e_log "not connected to the broker"
e2e_wait_for 30 grep -q '"control_api": "ready"' /run/kiosk/status.json || e2e_log "the control API is not ready"
status > status-boot.json

# The broker's client and busctl at the lock: nothing behind it runs.
mosquitto_sub -h 127.0.0.1 -t "$P/error" -v > /results/errors.txt &
echo $! > /results/errsub.pid
sleep 1
mpub -t "$P/cmd/toggle/heater" -m ON
mpub -t "$P/cmd/press/reset" -m PRESS
mpub -t "$P/cmd/screen" -m service
three_errors() { [ "$(wc -l < /results/errors.txt)" -ge 3 ]; }
e2e_wait_for 30 three_errors || e2e_log "errors: $(cat /results/errors.txt)"
busctl call $B SetToggle sb heater true > bus-toggle.txt 2>&1; echo "exit $?" >> bus-toggle.txt
busctl call $B Press s reset > bus-press.txt 2>&1; echo "exit $?" >> bus-press.txt
kiosk ctl press reset > ctl-press.txt 2>&1; echo "exit $?" >> ctl-press.txt

# The children: after some seconds of probes every second, no more `sleep 1000` than one round
# of them leaves running (3 of "forks" until its timeout, 1 of "leaves" until it ends).
sleep 12
for i in 1 2 3 4 5; do sleeps >> sleeps-running.txt; sleep 1; done
cat /sys/fs/cgroup/system.slice/kiosk.service/cgroup.procs 2>/dev/null | wc -l > cgroup-procs.txt

# Three hostile SVGs in one reload: a librsvg panic and a CPU stall refused by name, a 12000x12000
# image in a data: URI decoded (or not) in the SVG worker, never in the kiosk; the kiosk is the
# same process and draws.
mkdir -p /etc/kiosk/hostile
cp /scenario/hostile-svg/*.svg /etc/kiosk/hostile/
chmod -R a+rX /etc/kiosk/hostile
refused=$(status_number reloads_refused)
grep VmHWM "/proc/$(main_pid)/status" > hwm-before-hostile.txt
{ cat /scenario/attack.toml
  for f in convolve-panic turbulence-stall data-uri-12000; do
      printf '\n[[screens.main.sections.items]]\nlabel = "%s"\nicon = "/etc/kiosk/hostile/%s.svg"\naction = "back"\n' "$f" "$f"
  done; } > /etc/kiosk/.kiosk.toml.new
e2e_run check-hostile runuser -u kiosk -- kiosk check-config /etc/kiosk/.kiosk.toml.new
mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 90 refused_more "$refused" || e2e_log "the hostile reload was not refused"
status > status-hostile.json
shot after-hostile
main_pid > pid-after-hostile.txt
grep VmHWM "/proc/$(main_pid)/status" > hwm-after-hostile.txt

# The lab's own config back (applied), then a credentials file with an unquoted password:
# refused by line and kind, never by its text.
applied_more() { [ "$(status_number reloads_applied)" -gt "$1" ]; }
applied=$(status_number reloads_applied)
cp /scenario/attack.toml /etc/kiosk/.kiosk.toml.new
mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 60 applied_more "$applied" || e2e_log "the lab's config was not applied again"
refused=$(status_number reloads_refused)
credentials 'username = "lab"' "password = $SECRET"
systemctl reload kiosk.service
e2e_wait_for 60 refused_more "$refused" || e2e_log "the broken credentials were not refused"
status > status-secret.json
kiosk status > kiosk-status.txt 2>&1; echo "exit $?" >> kiosk-status.txt
kiosk check-config /etc/kiosk/kiosk.toml > check-secret.txt 2>&1; echo "exit $?" >> check-secret.txt
shot after-secret

e2e_wait_for 30 test -s /dev/shm/tamper-rc || e2e_log "the tampering value command did not run"
cp /dev/shm/tamper-rc tamper-rc.txt 2>/dev/null
grep -ls tampered /var/lib/kiosk/* /run/kiosk/* > tampered.txt 2>/dev/null || true
cat /dev/shm/leak-* 2>/dev/null | wc -c > leaked-bytes.txt
ls /dev/shm > marker-files.txt
systemctl show -p NRestarts --value kiosk.service > restarts.txt
main_pid > pid-end.txt
timeout 30 systemctl stop kiosk.service
sleep 1
sleeps > sleeps-after-stop.txt
service_journal -u kiosk.service
journalctl -b --no-pager > /results/journal-all.txt 2>&1
kill "$(cat /results/errsub.pid 2>/dev/null)" 2>/dev/null || true
