# e2e-timeout: 300
# e2e-needs: kiosk
# Live values on screen: one from a file and one from a command update when their sources
# change, each screenshot equal to `kiosk render --value` with the same values; a command that
# hangs is killed and shown stale, with the reason in the status file; a toggle is switched on
# by a tap and off by the knob's press (the keys knob), each through its command, and the
# screen shows it.
mkdir -p /run/live /run/kiosk
echo 21.5 > /run/live/room
echo 215.27 > /run/live/nozzle
echo 0 > /run/live/lights
status() { cat /run/kiosk/status.json 2>/dev/null; }
value_state() { status | grep -o "{\"id\": \"$1\", \"state\": \"[a-z]*\"" | sed 's/.*"state": "\([a-z]*\)"/\1/'; }
is_value() { [ "$(value_state "$1")" = "$2" ]; }
shot() { rm -f /run/kiosk/screenshot.png /run/kiosk/screenshot.png.txt; kill -USR1 "$(e2e_pid kiosk)"; e2e_wait_for 20 test -e /run/kiosk/screenshot.png.txt && cp /run/kiosk/screenshot.png "/results/$1.png"; }
render() { n=$1; shift; e2e_run "render-$n" kiosk render /scenario/live.toml --size 1024x768 --out "/results/render-$n.png" "$@"; }

e2e_run check kiosk check-config /scenario/live.toml
e2e_uinput_start
ui add touch ts 1024 768
ui add keys kb
e2e_bg kiosk kiosk run --config /scenario/live.toml
e2e_wait_for 60 grep -q '"screen": "live"' /run/kiosk/status.json || e2e_log "no status file"
e2e_wait_for 20 grep -q "input device added: kiosk-e2e keys kb" /results/kiosk.err || e2e_log "the keys were not opened"
e2e_wait_for 20 is_value hang failed || e2e_log "the hanging command was not marked failed"
e2e_wait_for 20 is_value nozzle ok || e2e_log "the nozzle value was not read"
sleep 1
status > status-first.json
shot first
render first --value lights=off --value room=21.5 --value nozzle=215.27 --stale hang

# The sources change: both values follow within a refresh or two.
echo 22.75 > /run/live/room
echo 230 > /run/live/nozzle
sleep 2
status > status-updated.json
shot updated
render updated --value lights=off --value room=22.75 --value nozzle=230 --stale hang

# A tap on the switch (item 0) turns it on; the knob's press turns it off again.
kiosk render /scenario/live.toml --size 1024x768 --layout /results/layout.json > /dev/null
set -- $(grep '"index": [0-9]*, "label": "Workshop lights' /results/layout.json | head -n 1 | sed 's/.*"rect": \[\([^]]*\)\].*/\1/' | tr -d ',')
x=$(awk "BEGIN { print int($1 + $3 / 2) }"); y=$(awk "BEGIN { print int($2 + $4 / 2) }")
e2e_log "switch at $x,$y"
ui tap ts "$x" "$y"
e2e_wait_for 10 grep -q '^1$' /run/live/lights || e2e_log "the tap did not switch the lights on"
sleep 2
status > status-on.json
shot on
render on --value lights=on --value room=22.75 --value nozzle=230 --stale hang
ui key kb KEY_ENTER
e2e_wait_for 10 grep -q '^0$' /run/live/lights || e2e_log "the knob did not switch the lights off"
sleep 2
status > status-off.json
shot off
cp /run/live/switches switches.txt
e2e_stop kiosk TERM 20
e2e_uinput_stop
