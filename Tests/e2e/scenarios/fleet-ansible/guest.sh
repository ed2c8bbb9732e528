# e2e-mode: systemd
# e2e-timeout: 2400
# e2e-silence: 420
# e2e-memory: 1536
# e2e-needs: kiosk
# e2e-net: ssh
# A fleet manages the kiosk with Ansible (packaging/ansible) from the host, over ssh to a
# loopback port that qemu forwards to this guest and nothing else. host.py runs the playbook at
# each `e2e_host` step; this side records what the device shows in between:
#   install      the .deb and bundle A: the kiosk runs release A
#   icons        bundle B (new title, every icon changed), screenshots taken back to back from
#                the swap on: the same process, a new generation, and no frame shows half of it
#   bad          a bundle naming a missing icon and with an icon that is a dangling symlink:
#                refused by check-config before the swap; current, the screen and the process kept
#   again        bundle A again, for a clean push-to-applied time
# node_exporter serves the kiosk's metrics_file; `systemd-analyze security` with the role's drop-in.
. /scenario/service.sh

field() { python3 -c 'import json, sys; print(json.load(open("/run/kiosk/status.json")).get(sys.argv[1]))' "$1" 2>/dev/null; }
# after NAME: what the device shows after a host step.
after() {
    main_pid > "pid-$1.txt"
    status > "status-$1.json"
    readlink /etc/kiosk/current > "current-$1.txt" 2>&1
    stat -c %.9Y /etc/kiosk/current > "swap-time-$1.txt" 2>&1
    ls /etc/kiosk/releases > "releases-$1.txt" 2>&1
    systemctl show -p NRestarts --value kiosk.service > "restarts-$1.txt"
}

systemctl unmask prometheus-node-exporter.service >/dev/null 2>&1
systemctl start prometheus-node-exporter.service || e2e_log "node_exporter did not start"

e2e_host install 900; echo $? > host-install.rc
service_wait_ready 60 || e2e_log "kiosk.service not ready after the install"
e2e_wait_for 30 test -s /run/kiosk/status.json
sleep 1
after install
shot a
systemctl cat kiosk.service > unit.txt 2>&1
systemd-analyze security --no-pager kiosk.service > security.txt 2>&1

# Screenshots around the swap of bundle B: the screen is A until `current` changes (a cheap
# readlink poll), then shots back to back until three show B's release in the status file.
# (A screenshot is a PNG encoded on the kiosk's loop: a steady stream of them under TCG on a
# loaded host holds the loop long enough for the 4 s watchdog.)
rm -f /run/kiosk-e2e-stop-shots
(
    before=$(readlink /etc/kiosk/current)
    while [ "$(readlink /etc/kiosk/current)" = "$before" ] && [ ! -f /run/kiosk-e2e-stop-shots ]; do sleep 0.1; done
    i=0 b=0
    while [ $b -lt 3 ] && [ $i -lt 40 ] && [ ! -f /run/kiosk-e2e-stop-shots ]; do
        i=$((i + 1))
        shot "during-$(printf %03d $i)" || echo "shot $i failed"
        src=$(field config_source)
        echo "$i $src $(field generation)"
        [ "$src" = "/etc/kiosk/$(readlink /etc/kiosk/current)/kiosk.toml" ] && b=$((b + 1))
    done
) > during.txt 2>&1 &
shots=$!
e2e_host icons 900; echo $? > host-icons.rc
touch /run/kiosk-e2e-stop-shots
wait $shots
after icons
shot b

e2e_host bad 600; echo $? > host-bad.rc
after bad
shot after-bad

e2e_host again 900; echo $? > host-again.rc
after again
/usr/bin/kiosk status > kiosk-status.txt 2>&1; echo $? > kiosk-status.rc

# node_exporter's view (metrics_file is written at most once a second).
sleep 2
python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:9100/metrics", timeout=30).read().decode())' > node-exporter.txt 2> node-exporter.err
cp /var/lib/prometheus/node-exporter/kiosk.prom kiosk.prom 2>/dev/null
ls -la /var/lib/prometheus/node-exporter > metrics-dir.txt 2>&1
journalctl -b --no-pager -u kiosk.service -o short-unix > journal-kiosk.txt 2>&1
