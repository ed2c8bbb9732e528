# e2e-timeout: 400
# e2e-needs: kiosk
# e2e-alone: the reload time (a figure) and the drag's release velocity
# The kiosk boots to the menu of the example config; a remote-style replacement of the config
# (write a temporary file, rename it over) changes the menu, same PID (how soon: a figure); an
# invalid replacement keeps the old menu and shows a banner; a finger held through a rename goes
# on dragging the new menu and its release settles it; then an `exec` item started by a key press
# hands the display to another DRM program and takes it back when it exits.
mkdir -p /etc/kiosk /usr/bin
cp -r /scenario/example/. /etc/kiosk/
[ -e /usr/bin/sleep ] || ln -s /bin/busybox /usr/bin/sleep
uptime_cs() { awk '{ printf "%d", $1 * 100 }' /proc/uptime; }
status() { cat /run/kiosk/status.json 2>/dev/null; }
generation() { status | sed -n 's/.*"generation": \([0-9]*\).*/\1/p'; }
shot() { rm -f /run/kiosk/screenshot.png; kill -USR1 "$(e2e_pid kiosk)"; e2e_wait_for 20 test -s /run/kiosk/screenshot.png && sleep 0.5 && cp /run/kiosk/screenshot.png "/results/$1.png"; }
render() { e2e_run "render-$1" kiosk render "$2" --size 1024x768 --out "/results/render-$1.png"; }

e2e_run check kiosk check-config /etc/kiosk/kiosk.toml
e2e_bg kiosk kiosk run --config /etc/kiosk/kiosk.toml
e2e_wait_for 60 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
e2e_alive kiosk || { e2e_log "the kiosk is not running"; e2e_wait_exit kiosk 1; exit 0; }
sleep 2
pid=$(e2e_pid kiosk)
status > status-boot.json
shot boot
render boot /etc/kiosk/kiosk.toml

# Remote-style replacement: temp file + rename. "Tools" becomes "Toolbox".
sed 's/^label = "Tools"/label = "Toolbox"/' /etc/kiosk/kiosk.toml > /etc/kiosk/.kiosk.toml.new
start=$(uptime_cs)
mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 10 sh -c '[ "$(sed -n "s/.*\"generation\": \([0-9]*\).*/\1/p" /run/kiosk/status.json)" = 2 ]'
echo $(( $(uptime_cs) - start )) > reload-centiseconds.txt
sleep 1
status > status-reloaded.json
shot reloaded
render reloaded /etc/kiosk/kiosk.toml

# An invalid replacement, written in place this time.
cp /etc/kiosk/kiosk.toml /results/good.toml
printf '[screens.main\nlabel = broken\n' > /etc/kiosk/kiosk.toml
sleep 2
status > status-invalid.json
shot invalid
kill -0 "$pid" && echo "$pid" > same-pid.txt

# A finger held through a config rename. An arc of eight items (drag.toml, renamed over the
# broken file: generation 3); a finger down on the selected item "One", dragged 0.6 of an item
# up; the same menu with another title renamed over the config while the finger is down
# (generation 4); then dragged on, slowly, to two items up and lifted. The new menu follows the
# finger and the release settles it on item 2 ("Three"), at rest on a whole item.
is_generation() { [ "$(generation)" = "$1" ]; }
cp /scenario/drag.toml /etc/kiosk/.kiosk.toml.new
mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 20 is_generation 3 || e2e_log "drag.toml was not applied"
# Where the items are, as the kiosk lays them out on vkms's 1024x768 (the touch device's units are
# pixels): "One" selected, "Two" one item's pitch below it.
kiosk render /etc/kiosk/kiosk.toml --layout /results/drag-layout.json --size 1024x768 > /dev/null
centre() {
    set -- $(grep "\"index\": [0-9]*, \"label\": \"$1\"" /results/drag-layout.json | head -n 1 | sed 's/.*"rect": \[\([^]]*\)\].*/\1/' | tr -d ',')
    awk "BEGIN { print int($1 + $3 / 2), int($2 + $4 / 2) }"
}
set -- $(centre One) $(centre Two)
x0=$1; y0=$2; pitch=$(($4 - $2))
e2e_log "drag: \"One\" at $x0,$y0, pitch $pitch"
echo "$x0 $y0 $pitch" > drag-geometry.txt
e2e_uinput_start
ui add touch ts 1024 768
ui add keys kb
e2e_wait_for 20 grep -q "input device added: kiosk-e2e touch ts" /results/kiosk.err || e2e_log "the touchscreen was not opened"
sleep 1
ui down ts "$x0" "$y0"
ui move ts "$x0" $((y0 - pitch * 6 / 10)) 600 12
sed 's/^title = "Drag"/title = "Dragged"/' /scenario/drag.toml > /etc/kiosk/.kiosk.toml.new
mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 20 is_generation 4 || e2e_log "the renamed title was not applied"
ui move ts "$x0" $((y0 - 2 * pitch)) 1400 28
ui up ts
e2e_wait_for 10 grep -q '"selection": 2' /run/kiosk/status.json || e2e_log "the release did not settle on item 2"
sleep 1
status > status-drag.json
rm -f /run/kiosk/screenshot.png.txt
kill -USR1 "$pid"
e2e_wait_for 20 test -e /run/kiosk/screenshot.png.txt && cp /run/kiosk/screenshot.png.txt drag-shot.txt
ui del ts
# Back to item 0: the next config keeps the selected position, and the exec below is its item 0.
ui key kb KEY_UP KEY_UP
e2e_wait_for 10 grep -q '"selection": 0' /run/kiosk/status.json || e2e_log "the selection did not go back to item 0"

# Exec: a key press on the first item of another config (applied by SIGHUP).
printf '#!/nonexistent/interpreter\n' > /tmp/broken-program
chmod +x /tmp/broken-program
cp /scenario/exec-test.toml /etc/kiosk/kiosk.toml
kill -HUP "$pid"
sleep 2
ui key kb KEY_ENTER
e2e_wait_for 120 grep -q 'exited with status 0' /run/kiosk/status.json || e2e_log "exec did not finish"
sleep 2
status > status-after-exec.json
kill -USR1 "$pid"
e2e_wait_for 20 test -s /results/menu-after-exec.png
sleep 0.5
render after-exec /etc/kiosk/kiosk.toml
# The second item cannot start: a banner, and the menu stays.
ui key kb KEY_DOWN
sleep 2
ui key kb KEY_ENTER
sleep 2
status > status-failed-exec.json
e2e_uinput_stop
e2e_stop kiosk TERM 20
