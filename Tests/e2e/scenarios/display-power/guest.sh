# e2e-timeout: 900
# e2e-needs: kiosk
# e2e-alone: idle timers and wake-to-flip latency, a figure
# [power] on vkms: started with [power] at 0 (never) for the lit reference, then reloaded to dim
# after 1 s and go off after 4 s without input; the connector's
# DPMS and the CRTC's ACTIVE are read through libdrm (kiosk-drmstate) while it is off, and no frame
# is flipped then. A tap on an item, a wheel detent, a key and a dial step each wake it and do
# nothing else; a tap with the panel on opens the item (the control). Then 100 blank/wake cycles
# (blank_after 0.5 s after a reload): same process, fds and VmRSS recorded before and after.
# Then a second kiosk with an exec item: after the program has run, a tap, a detent and Enter on
# the blanked panel each only wake it (the program does not run again, the selection stays).
# First [power] at 0 (never): the screenshot and DRM state of the lit menu, however slow the guest.
sed -e 's/^dim_after = 1/dim_after = 0/' -e 's/^blank_after = 4/blank_after = 0/' /scenario/power.toml > /results/kiosk.toml
e2e_uinput_start
ui add touch ts 1024 768
ui add wheel wh
ui add keys kb
ui add dial dl
e2e_bg kiosk kiosk run --config /results/kiosk.toml
pid=$(e2e_pid kiosk)
power() { sed -n 's/.*"display_power": "\([a-z]*\)".*/\1/p' /results/status.json 2>/dev/null; }
is_power() { [ "$(power)" = "$1" ]; }
frames() { sed -n 's/^kiosk_frames_total //p' /results/kiosk.prom 2>/dev/null; }
record() {
    echo "$1 fds=$(ls /proc/$pid/fd | wc -l) rss_kib=$(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status)" \
        "$(awk '/^Rss(Anon|File|Shmem):/ { printf "%s=%s ", substr($1, 1, length($1) - 1), $2 }' /proc/$pid/status)" >> /results/cycles.txt
}
shot() {
    rm -f /results/screenshot.png.txt
    kill -USR1 "$pid"
    e2e_wait_for 20 test -e /results/screenshot.png.txt && cp /results/screenshot.png "/results/$1.png"
}
e2e_wait_for 30 grep -q "menu on screen" /results/kiosk.err || e2e_log "the menu did not come up"
# Where "Open" (item 0, selected) is, as the kiosk lays it out on vkms's 1024x768 (the touch
# device's range is the same, so its units are pixels).
kiosk render /results/kiosk.toml --layout /results/layout.json --size 1024x768 > /dev/null
set -- $(grep '"index": [0-9]*, "label": "Open"' /results/layout.json | head -n 1 | sed 's/.*"rect": \[\([^]]*\)\].*/\1/' | tr -d ',')
open_x=$(awk "BEGIN { print int($1 + $3 / 2) }"); open_y=$(awk "BEGIN { print int($2 + $4 / 2) }")
e2e_log "power: \"Open\" at $open_x,$open_y"
e2e_wait_for 30 test -e /results/status.json
shot lit
kiosk-drmstate > /results/drm-lit.txt
cp /scenario/power.toml /results/.kiosk.toml.new && mv /results/.kiosk.toml.new /results/kiosk.toml
e2e_wait_for 20 grep -q '"generation": 2' /results/status.json || e2e_log "the [power] config was not applied"

# Off after idle: DPMS Off, the CRTC inactive, no frame flipped for 3 s.
# (The idle time since start counts: straight to off, without a dimmed phase.)
e2e_wait_for 20 is_power off || e2e_log "the panel did not go off"
sleep 1.2  # the metrics file is rewritten at most once a second
kiosk-drmstate > /results/drm-off.txt
echo "$(frames)" > /results/frames-off-start.txt
sleep 3
echo "$(frames)" > /results/frames-off-end.txt
kiosk-drmstate > /results/drm-off-later.txt

# A tap on "Open" (item 0, selected) wakes the panel and opens nothing.
ui tap ts "$open_x" "$open_y"
e2e_wait_for 10 is_power on || e2e_log "the tap did not wake the panel"
kiosk-drmstate > /results/drm-woken-by-touch.txt
shot woken-by-touch
sleep 0.5
cp /results/status.json /results/status-after-touch.json

# Dimmed 1 s after that tap, off 3 s later; then a wheel detent wakes it and does not move the selection.
e2e_wait_for 20 is_power dimmed && cp /results/status.json /results/status-dimmed.json
e2e_wait_for 20 is_power off
ui wheel wh -1
e2e_wait_for 10 is_power on || e2e_log "the wheel did not wake the panel"
sleep 1
cp /results/status.json /results/status-after-wheel.json
kiosk-drmstate > /results/drm-woken-by-wheel.txt

# A key (Down: next item) wakes it and does nothing else.
e2e_wait_for 20 is_power off
ui key kb KEY_DOWN
e2e_wait_for 10 is_power on || e2e_log "the key did not wake the panel"
sleep 1
cp /results/status.json /results/status-after-key.json

# A dial step.
e2e_wait_for 20 is_power off
ui turn dl 1
e2e_wait_for 10 is_power on || e2e_log "the dial did not wake the panel"
sleep 1
cp /results/status.json /results/status-after-dial.json

# The control: with the panel on (a key wakes it first, however slow the guest was), the same
# tap opens "Open"'s screen; Escape goes back.
e2e_wait_for 20 is_power off
ui key kb KEY_UP
e2e_wait_for 10 is_power on || e2e_log "the key did not wake the panel for the control tap"
ui tap ts "$open_x" "$open_y"
e2e_wait_for 10 grep -q '"screen": "next"' /results/status.json || e2e_log "the control tap did not open the screen"
cp /results/status.json /results/status-after-control-tap.json
ui key kb KEY_ESC
e2e_wait_for 10 grep -q '"screen": "main"' /results/status.json

# 100 blank/wake cycles, by touch (on an empty corner), wheel and key in turn. A wake is seen in
# the kiosk's log (one line each): the panel may be off again before a poll of the status sees it on.
wakes() { grep -c "display woken by" /results/kiosk.err; }
sed -e 's/^dim_after = 1/dim_after = 0/' -e 's/^blank_after = 4/blank_after = 0.5/' /scenario/power.toml > /results/.kiosk.toml.new
mv /results/.kiosk.toml.new /results/kiosk.toml
e2e_wait_for 20 grep -q '"generation": 3' /results/status.json || e2e_log "the faster config was not applied"
e2e_wait_for 20 is_power off
record before-cycles
i=1; woke=0; n=$(wakes)
while [ $i -le 100 ]; do
    e2e_wait_for 20 is_power off || e2e_log "cycle $i: the panel did not go off"
    case $((i % 3)) in
        0) ui tap ts 100 700 ;;
        1) ui wheel wh 1 ;;
        2) ui key kb KEY_UP ;;
    esac
    n=$((n + 1))
    e2e_wait_for 10 sh -c "[ \$(grep -c 'display woken by' /results/kiosk.err) -ge $n ]" && woke=$((woke + 1))
    [ $((i % 25)) -eq 0 ] && e2e_log "power: $i cycles, $woke woke"
    # The first wakes draw the reloaded config's screen for the first time (its caches): warm-up.
    [ $i -eq 10 ] && { e2e_wait_for 20 is_power off; sleep 1; record after-10-cycles; }
    [ $((i % 10)) -eq 0 ] && [ $i -gt 10 ] && record "cycle-$i"
    i=$((i + 1))
done
echo "$woke" > /results/cycles-woken.txt
e2e_wait_for 20 is_power off
sleep 1
record after-100-cycles
e2e_alive kiosk && echo alive > /results/alive-after-cycles.txt
cp /results/status.json /results/status-after-cycles.json
cp /results/kiosk.prom /results/metrics-after-cycles.prom
e2e_stop kiosk TERM 20
kiosk-drmstate > /results/drm-after-exit.txt

# After an exec, a tap, a detent and Enter on the blanked panel each only wake it. A second kiosk
# (power-exec.toml: off 2 s after the last input; item 0 "Count" runs a program that notes its run
# in exec-runs.txt and exits). The hand-over suspends libinput; the removal of its devices (a
# touch cancel for the touchscreen) reaches the kiosk with the first input after the program, so
# each of the three is the first input after a run of its own: run 1 by a tap on "Count" with the
# panel on (the control), runs 2 and 3 by Enter with the panel on.
cp /scenario/power-exec.toml /results/exec.toml
e2e_bg kiosk2 kiosk run --config /results/exec.toml
pid2=$(e2e_pid kiosk2)
xpower() { sed -n 's/.*"display_power": "\([a-z]*\)".*/\1/p' /results/exec-status.json 2>/dev/null; }
is_xpower() { [ "$(xpower)" = "$1" ]; }
backs() { grep -c "taking the display back" /results/kiosk2.err; }
has_backs() { [ "$(backs)" -ge "$1" ]; }
xshot() {
    rm -f /results/exec-screenshot.png.txt
    kill -USR1 "$pid2"
    e2e_wait_for 20 test -e /results/exec-screenshot.png.txt &&
        cp /results/exec-screenshot.png "/results/$1.png" && cp /results/exec-screenshot.png.txt "/results/$1.txt"
}
# run_count N CMD...: the panel woken (a tap on an empty corner: nothing there), then CMD starts
# "Count" (its Nth run); waits until the kiosk has the display back.
run_count() {
    _n=$1; shift
    ui tap ts 100 700
    e2e_wait_for 10 is_xpower on || e2e_log "power-exec: the panel is not on for run $_n"
    ui "$@"
    e2e_wait_for 30 has_backs "$_n" || e2e_log "power-exec: run $_n did not give the display back"
}
# blanked NAME CMD...: once the panel is off, CMD; then the status, a screenshot, the runs so far.
blanked() {
    _name=$1; shift
    e2e_wait_for 20 is_xpower off || e2e_log "power-exec: the panel did not go off before the $_name"
    _wakes=$(grep -c 'display woken by' /results/kiosk2.err)
    ui "$@"
    e2e_wait_for 10 is_xpower on || e2e_log "power-exec: the $_name did not wake the panel"
    sleep 1
    cp /results/exec-status.json "/results/exec-status-after-$_name.json"
    xshot "exec-woken-by-$_name"
    echo "$_name runs=$(wc -l < /dev/shm/exec-runs.txt) started=$(grep -c 'has the display' /results/kiosk2.err)" \
        "wakes=$(( $(grep -c 'display woken by' /results/kiosk2.err) - _wakes )) woken_by=$(sed -n 's/.*display woken by //p' /results/kiosk2.err | tail -n 1)" \
        >> /results/exec-rounds.txt
}
e2e_wait_for 30 grep -q "menu on screen" /results/kiosk2.err || e2e_log "power-exec: the menu did not come up"
e2e_wait_for 20 grep -q "input device added: kiosk-e2e touch ts" /results/kiosk2.err || e2e_log "power-exec: no touchscreen"
kiosk render /results/exec.toml --layout /results/exec-layout.json --size 1024x768 > /dev/null
set -- $(grep '"index": [0-9]*, "label": "Count"' /results/exec-layout.json | head -n 1 | sed 's/.*"rect": \[\([^]]*\)\].*/\1/' | tr -d ',')
count_x=$(awk "BEGIN { print int($1 + $3 / 2) }"); count_y=$(awk "BEGIN { print int($2 + $4 / 2) }")
e2e_log "power-exec: \"Count\" at $count_x,$count_y"
run_count 1 tap ts "$count_x" "$count_y"
sleep 0.5
xshot exec-lit
blanked tap tap ts "$count_x" "$count_y"
run_count 2 key kb KEY_ENTER
blanked detent wheel wh -1
run_count 3 key kb KEY_ENTER
blanked enter key kb KEY_ENTER
e2e_stop kiosk2 TERM 20
# The program notes its runs in /dev/shm: what the kiosk launches cannot write its config's
# folder (/results here).
cp /dev/shm/exec-runs.txt /results/exec-runs.txt 2>/dev/null
e2e_uinput_stop
