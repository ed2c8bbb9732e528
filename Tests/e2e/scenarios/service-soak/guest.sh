# e2e-mode: systemd
# e2e-timeout: 900
# e2e-needs: kiosk
# The service under churn: 100 rapid config replacements, 50 input-device unplug/replug
# cycles, 20 display disconnect/reconnect cycles, 50 blank/wake cycles of [power]. Same PID throughout; open fds and VmRSS are
# recorded before and after each phase (soak.txt) for the check and BENCHMARKS.md.
. /scenario/service.sh

service_install
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
sleep 3
pid=$(main_pid); echo "$pid" > pid.txt
record() {
    echo "$1 pid=$(main_pid) fds=$(fd_count "$pid") rss_kib=$(rss_kib "$pid") rss_anon_kib=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status") anon_huge_kib=$(awk '/^AnonHugePages:/ { print $2 }' "/proc/$pid/smaps_rollup") generation=$(status_number generation)" >> soak.txt
    e2e_log "soak: $(tail -n 1 soak.txt)"
    # Which mappings hold the memory (the heap, a thread's stack, a library's data), to tell a
    # step from a leak when the check fails.
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon " $1 "]" : $6) } /^Rss:/ && $2 > 0 { print $2, name }' "/proc/$pid/smaps" > "smaps-$1.txt"
}
record start

# Three batches of 100 rapid replacements, each a different text (rename over the old file, as
# a fleet does): growth that repeats per batch is a leak, a one-off is warm-up. One python3 writes
# and renames them (as a sed and a mv each, the 300 took about 4.5 minutes under TCG).
for batch in 1 2 3; do
    python3 - "$batch" <<'PY'
import re, sys, os, time
batch = int(sys.argv[1])
text = open("/scenario/systemd/kiosk.toml").read()
for i in range((batch - 1) * 100 + 1, batch * 100 + 1):
    with open("/etc/kiosk/.kiosk.toml.new", "w") as f:
        f.write(re.sub(r'^label = "Media"', f'label = "Media {i}"', text, flags=re.M))
    os.rename("/etc/kiosk/.kiosk.toml.new", "/etc/kiosk/kiosk.toml")
    time.sleep(0.05)
PY
    e2e_wait_for 20 grep -q "\"selected_label\": \"Media $((batch * 100))\"" /run/kiosk/status.json
    sleep 3
    record "after-$((batch * 100))-configs"
done

e2e_uinput_start
# Each cycle waits until the kiosk holds the new event node open (libinput took the device),
# then unplugs it and waits until the kiosk has closed it.
holds() { ls -l "/proc/$pid/fd" 2>/dev/null | grep -q " $1\$"; }
i=1; seen=0
while [ $i -le 50 ]; do
    [ $i -eq 2 ] && { sleep 1; record input-cycle-1; }
    ui add touch t
    node=$(e2e_event_node "kiosk-e2e touch t")
    if e2e_wait_for 15 holds "$node"; then seen=$((seen + 1)); fi
    ui del t
    e2e_wait_for 15 sh -c "! ls -l /proc/$pid/fd | grep -q ' $node\$'" || e2e_log "the kiosk still holds $node after the unplug"
    if [ $((i % 10)) -eq 0 ]; then
        e2e_log "soak: $i input cycles, the kiosk opened the device in $seen"
        sleep 1; record "input-cycle-$i"
    fi
    i=$((i + 1))
done
echo "$seen" > input-cycles-seen.txt
sleep 3
record after-50-input-cycles

i=1
while [ $i -le 20 ]; do
    e2e_display off
    sleep 1
    e2e_display detect
    sleep 2
    [ $((i % 10)) -eq 0 ] && e2e_log "soak: $i display cycles"
    i=$((i + 1))
done
sleep 3
record after-20-display-cycles

# [power] turned on by a reload (off 0.5 s after input), then 50 blank/wake cycles by a key.
replace_config 's/^# \[power\]$/[power]/; s/^# blank_after = 300$/blank_after = 0.5/'
e2e_wait_for 20 grep -q '"display_power": "off"' /run/kiosk/status.json || e2e_log "soak: [power] did not blank the panel"
ui add keys kb
e2e_wait_for 15 sh -c "journalctl -b -u kiosk.service --no-pager | grep -q 'input device added: kiosk-e2e keys kb'"
n=$(journalctl -b -u kiosk.service --no-pager | grep -c "display woken by"); i=1; woke=0
while [ $i -le 50 ]; do
    e2e_wait_for 20 grep -q '"display_power": "off"' /run/kiosk/status.json
    ui key kb KEY_UP
    n=$((n + 1))
    e2e_wait_for 10 sh -c "[ \$(journalctl -b -u kiosk.service --no-pager | grep -c 'display woken by') -ge $n ]" && woke=$((woke + 1))
    [ $((i % 10)) -eq 0 ] && e2e_log "soak: $i power cycles, $woke woke"
    i=$((i + 1))
done
echo "$woke" > power-cycles-woken.txt
# The keyboard unplugged again, so that the fds compare with the start.
node=$(e2e_event_node "kiosk-e2e keys kb")
ui del kb
e2e_wait_for 15 sh -c "! ls -l /proc/$pid/fd | grep -q ' $node\$'" || e2e_log "the kiosk still holds $node after the unplug"
e2e_wait_for 20 grep -q '"display_power": "off"' /run/kiosk/status.json
sleep 2
record after-50-power-cycles
replace_config 's/^x$/x/'
e2e_wait_for 20 grep -q '"display_power": "on"' /run/kiosk/status.json
sleep 1
shot after-soak
e2e_uinput_stop
systemctl show -p NRestarts --value kiosk.service > restarts.txt
service_journal -u kiosk.service
