# e2e-timeout: 300
# e2e-needs: kiosk
# MQTT: a broker (Debian's mosquitto) in the guest. The kiosk's discovery documents and retained
# state are read back with mosquitto_sub; mosquitto_pub sets a value only the API sets (the
# screenshot equals `kiosk render --value`), switches a toggle read from a file, shows a screen and goes home; bad commands (not UTF-8, not JSON, an
# unknown screen or id) are answered on the error topic, and so are an item not published and a
# locked screen with its published items (nothing of theirs runs); 1,000 commands in a burst are dropped
# over the rate limit while the kiosk keeps answering; the broker is killed and restarted: the
# knob moves the selection meanwhile and the kiosk reconnects and publishes its state again.
# The kiosk's RSS with [mqtt] (connected, before any command, and at the end) and without.
mkdir -p /run/mqtt /run/kiosk
# The room's value only the API sets (MQTT here); the lights' state is read from a file their
# switch commands write.
echo 0 > /run/mqtt/lights
chmod 666 /run/mqtt/lights
echo 0 > /run/mqtt/fan
echo 0 > /run/mqtt/heater
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
P=house/hall
# The guest has no resolver: the clients' default host "localhost" would not be found.
msub() { mosquitto_sub -h 127.0.0.1 "$@"; }
mpub() { mosquitto_pub -h 127.0.0.1 "$@"; }
status() { cat /run/kiosk/status.json 2>/dev/null; }
mqtt_state() { status | grep -o '"mqtt": {[^}]*}'; }
connected_times() { mqtt_state | grep -q "\"state\": \"connected\", \"error\": null, \"connects\": $1"; }
retained() { msub -t "$1" -C 1 -W 2 2>/dev/null; }
is_retained() { [ "$(retained "$1")" = "$2" ]; }
shot() { rm -f /run/kiosk/screenshot.png /run/kiosk/screenshot.png.txt; kill -USR1 "$(e2e_pid kiosk)"; e2e_wait_for 20 test -e /run/kiosk/screenshot.png.txt && cp /run/kiosk/screenshot.png "/results/$1.png"; }
render() { n=$1; shift; e2e_run "render-$n" kiosk render /scenario/mqtt.toml --size 1024x768 --out "/results/render-$n.png" "$@"; }

e2e_run check kiosk check-config /scenario/mqtt.toml
e2e_bg broker mosquitto -c /scenario/mosquitto.conf
e2e_uinput_start
ui add keys kb
e2e_bg kiosk kiosk run --config /scenario/mqtt.toml
e2e_wait_for 60 grep -q '"screen": "hall"' /run/kiosk/status.json || e2e_log "no status file"
e2e_wait_for 20 connected_times 1 || e2e_log "not connected: $(mqtt_state)"
e2e_wait_for 20 grep -q "input device added: kiosk-e2e keys kb" /results/kiosk.err || e2e_log "the keys were not opened"
mosquitto_sub -h 127.0.0.1 -t "$P/error" -v > /results/errors.txt &
echo $! > /results/errsub.pid
msub -t 'homeassistant/#' -v -W 3 > discovery.txt
msub -t "$P/#" -v -W 2 > state-first.txt
grep VmRSS "/proc/$(e2e_pid kiosk)/status" > rss-mqtt-start.txt

# A value set over MQTT is on screen as `kiosk render` draws it.
mpub -t "$P/cmd/value/room" -m 23.5
e2e_wait_for 10 is_retained "$P/state/value/room" "23.5 °C" || e2e_log "the value was not published back"
sleep 1
shot value
render value --value room=23.5 --value lights=off --value fan=off

# A screen, then home; the toggle switched from outside (its `on` command runs and writes the file).
mpub -t "$P/cmd/screen" -m settings
e2e_wait_for 10 grep -q '"screen": "settings"' /run/kiosk/status.json || e2e_log "the screen command did nothing"
e2e_wait_for 10 is_retained "$P/state/screen" settings || e2e_log "the screen was not published"
mpub -t "$P/cmd/home" -m ""
e2e_wait_for 10 grep -q '"screen": "hall"' /run/kiosk/status.json || e2e_log "home did nothing"
# The hall's values are read again when it is shown: let that reading end first.
sleep 1
mpub -t "$P/cmd/toggle/lights" -m ON
e2e_wait_for 10 is_retained "$P/state/toggle/lights" ON || e2e_log "the toggle was not set"

# Bad input: each answered on the error topic; the kiosk carries on.
printf '\377\376bad' | mpub -t "$P/cmd/screen" -s
mpub -t "$P/cmd/screen" -m nowhere
mpub -t "$P/cmd/notify" -m '{"text": 5'
mpub -t "$P/cmd/value/nothing" -m 1
mpub -t "$P/cmd/reboot" -m now
# The gate: an item not published; a locked screen, its published items (a spawn, a toggle).
mpub -t "$P/cmd/toggle/fan" -m ON
mpub -t "$P/cmd/screen" -m service
mpub -t "$P/cmd/press/reset" -m PRESS
mpub -t "$P/cmd/toggle/heater" -m ON
# (A function: the count is taken again at each poll, not once when the line is read.)
nine_errors() { [ "$(wc -l < /results/errors.txt)" -ge 9 ]; }
e2e_wait_for 30 nine_errors || e2e_log "errors: $(cat /results/errors.txt)"
sleep 2
ls /run/mqtt > mqtt-files.txt

# 1,000 commands at once, while the knob turns: the menu answers, the excess is dropped.
seq 1000 | sed 's/^/2/' | mpub -t "$P/cmd/value/room" -l
ui key kb KEY_DOWN
e2e_wait_for 10 grep -q '"selection": 1' /run/kiosk/status.json || e2e_log "the knob did not move during the burst"
sleep 2
cp /run/kiosk/kiosk.prom metrics-burst.prom
ui key kb KEY_UP
e2e_wait_for 10 grep -q '"selection": 0' /run/kiosk/status.json || e2e_log "the knob did not move back"

# The broker goes away: the knob still moves; the kiosk reconnects when it is back and
# publishes its state again (the broker kept nothing).
e2e_stop broker KILL 5
e2e_wait_for 15 sh -c 'cat /run/kiosk/status.json | grep -q "\"state\": \"retrying\""' || e2e_log "the loss was not noticed: $(mqtt_state)"
status > status-down.json
ui key kb KEY_DOWN
ui key kb KEY_DOWN
e2e_wait_for 10 grep -q '"selection": 2' /run/kiosk/status.json || e2e_log "the knob did not move while the broker was down"
e2e_bg broker2 mosquitto -c /scenario/mosquitto.conf
e2e_wait_for 70 connected_times 2 || e2e_log "no reconnect: $(mqtt_state)"
sleep 1
msub -t "$P/#" -v -W 2 > state-again.txt
msub -t 'homeassistant/#' -v -W 2 > discovery-again.txt
grep VmRSS "/proc/$(e2e_pid kiosk)/status" > rss-mqtt.txt
kill "$(cat /results/errsub.pid)"
e2e_stop kiosk TERM 20

# The same config without [mqtt], for its RSS.
sed '/^\[mqtt\]/,/^$/d' /scenario/mqtt.toml > /run/plain.toml
rm -f /run/kiosk/status.json
e2e_bg plain kiosk run --config /run/plain.toml
e2e_wait_for 60 grep -q '"screen": "hall"' /run/kiosk/status.json || e2e_log "no status without mqtt"
# As long after the start as the connected kiosk's first figure.
sleep 4
grep VmRSS "/proc/$(e2e_pid plain)/status" > rss-plain.txt
e2e_stop plain TERM 20
e2e_stop broker2 TERM 5
e2e_uinput_stop
