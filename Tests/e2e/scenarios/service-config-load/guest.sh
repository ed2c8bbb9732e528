# e2e-mode: systemd
# e2e-timeout: 600
# e2e-needs: kiosk
# e2e-alone: the selection moving while a 1 MB config loads (two threads' relative speed)
# Config loads never stall the event loop. A fleet-style rename of (a) a config whose icon is an
# 8000x8000 PNG (17 KB on disk, 256 MB decoded): refused from the PNG's header with a clear
# line, the old config kept, same PID, no watchdog kill, memory unchanged; (b) a valid config
# of about 1 MB: while it loads, knob detents still move the selection (status file samples
# taken between the journal's "loading" and "applied" lines), then it is applied, same PID, its
# three 2048x2048 icons decoded off the loop too.
. /scenario/service.sh

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# sample: "UPTIME selection=N generation=N", one process, so that samples come every few tens of ms.
sample() {
    awk 'FILENAME == "/proc/uptime" { t = $1; next }
         { s = $0; sub(/.*"selection": /, "", s); sub(/[^0-9].*/, "", s)
           g = $0; sub(/.*"generation": /, "", g); sub(/[^0-9].*/, "", g) }
         END { print t " selection=" s " generation=" g }' /proc/uptime /run/kiosk/status.json
}
# cli_status NAME: `kiosk status` as a person and as a script sees it, with its exit status.
cli_status() {
    kiosk status > "status-cli-$1.txt" 2>&1; echo $? > "status-cli-$1.rc"
    kiosk status --json > "status-cli-$1.json" 2>&1
}
record() {
    echo "$1 pid=$(main_pid) rss_kib=$(rss_kib "$pid") generation=$(status_number generation)" >> memory.txt
    e2e_log "config-load: $(tail -n 1 memory.txt)"
}

service_install
cp /scenario/huge-icon.png /etc/kiosk/icons/huge.png
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
pid=$(main_pid); echo "$pid" > pid.txt
e2e_uinput_start
ui add wheel wh
# The knob works (the kiosk opened it) before anything is measured.
sel=$(status_number selection)
i=0
while [ $i -lt 20 ] && [ "$(status_number selection)" = "$sel" ]; do ui wheel wh -1; sleep 0.5; i=$((i + 1)); done
sleep 2
record start

# (a) The huge icon, renamed over the live config.
gen=$(status_number generation)
start=$(now_ms)
replace_config 's|icons/settings.png|icons/huge.png|'
e2e_wait_for 60 grep -q '"config_valid": false' /run/kiosk/status.json || e2e_log "the huge-icon config was not refused"
echo $(( $(now_ms) - start )) > huge-refused-ms.txt
sleep 5  # several watchdog periods (WatchdogSec=4s) after the refusal
status > status-after-huge.json
record after-huge-icon
cli_status refused

# (b) About 1 MB of valid config: the example with its title changed, a screen of 2500 items
# with a comment line each, and three 2048x2048 icons (the largest decoded, 16 MiB each), written
# beside the config and renamed over it.
for i in 1 2 3; do cp /scenario/large-icon.png "/etc/kiosk/icons/large$i.png"; done
big=/etc/kiosk/.kiosk-big.toml
{
    sed 's/^title = "Kiosk"/title = "Big"/' /scenario/systemd/kiosk.toml
    printf '\n[screens.bulk]\ntitle = "Bulk"\nstyle = "list"\n\n[[screens.bulk.sections]]\ntitle = "Many"\n'
    awk 'BEGIN {
        pad = sprintf("%0300d", 0); gsub(/0/, "x", pad)
        for (i = 1; i <= 3; i++)
            printf "[[screens.bulk.sections.items]]\nlabel = \"Large %d\"\nicon = \"icons/large%d.png\"\naction = \"back\"\n\n", i, i
        for (i = 1; i <= 2500; i++) {
            printf "# item %d of the bulk screen: %s\n", i, pad
            printf "[[screens.bulk.sections.items]]\nlabel = \"Bulk item %d\"\naction = \"back\"\n\n", i
        }
    }'
} > "$big"
wc -c < "$big" > big-bytes.txt
e2e_log "config-load: big config is $(cat big-bytes.txt) bytes"
gen=$(status_number generation)
echo "$gen" > generation-before-big.txt
sample > knob-samples.txt
start=$(now_ms)
mv "$big" /etc/kiosk/kiosk.toml
# A detent, then a sample of the status file, until the new generation shows (at most 400 turns).
# A detent at a time: the status file says the selection once the menu comes to rest, so each
# detent gets time to settle (on a fast host, detents 0.12 s apart kept the menu moving and the
# status at one selection for the whole load).
i=0
while [ $i -lt 400 ]; do
    ui wheel wh -1
    sleep 0.3
    line=$(sample)
    echo "$line" >> knob-samples.txt
    case "$line" in *" generation=$gen") ;; *) break ;; esac
    i=$((i + 1))
    [ $((i % 20)) -eq 0 ] && e2e_log "config-load: $i detents, still generation $gen: $line"
done
echo $(( $(now_ms) - start )) > big-applied-ms.txt
sleep 5
status > status-after-big.json
record after-big
cli_status applied
shot after-big

e2e_uinput_stop
systemctl show -p NRestarts --value kiosk.service > restarts.txt
systemctl stop kiosk.service
cli_status stopped
service_journal -u kiosk.service

