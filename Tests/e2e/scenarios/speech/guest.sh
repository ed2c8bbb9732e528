# e2e-mode: systemd
# e2e-timeout: 420
# e2e-needs: kiosk
# e2e-alone: audio captured in fixed windows while the kiosk speaks
# The menu speaks (issue 23): the installed service with [speech] on snd-aloop's playback side,
# arecord on its capture side. One detent says "Coffee"; ten fast detents (50 ms apart) say
# only where they stop, the Arabic "قهوة" in the Arabic voice; the PIN keypad by touch says
# "Entered" for each digit and never a digit. The host compares each capture with `espeak-ng -w`
# of the same text and voice (check.py). A reload that turns speech off closes the device.
. /scenario/service.sh
PIN=2580
cat /proc/asound/cards > asound-cards.txt 2>&1
hash=$(printf '%s\n' "$PIN" | kiosk hash-pin 2> hash-pin.err)
mkdir -p /etc/kiosk
sed "s|PIN_HASH|$hash|" /scenario/speech.toml > /etc/kiosk/kiosk.toml
kiosk check-config /etc/kiosk/kiosk.toml > check-config.txt 2>&1 || e2e_log "the config is refused: $(cat check-config.txt)"
service_install
e2e_uinput_start
ui add touch ts 1024 768
ui add dial dl
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "drinks"' /run/kiosk/status.json || e2e_log "no status file"
sleep 4  # the start says "Drinks. Admin"; the dial is opened
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# capture NAME SECONDS CMD...: records the loopback's capture side for SECONDS while CMD runs;
# NAME.raw (S16_LE, 22050 Hz, mono) and NAME.times: when the file first grew and to how many
# bytes (the capture's start is that moment less the bytes' duration), and when CMD started.
capture() {
    _name=$1; _secs=$2; shift 2
    arecord -q -D hw:Loopback,1,0 -f S16_LE -r 22050 -c 1 -t raw -d "$_secs" "$_name.raw" 2> "$_name.arecord.err" &
    _apid=$!
    _size=0
    until [ "$_size" -gt 0 ]; do _size=$(stat -c %s "$_name.raw" 2>/dev/null || echo 0); done
    _t1=$(uptime_s)
    sleep 0.5
    echo "grew=$_t1 bytes=$_size action=$(uptime_s)" > "$_name.times"
    "$@"
    wait "$_apid"
}
fast_turn() { ui turn dl 10 50; }  # ten steps 50 ms apart, from kiosk-uinput itself
tap_pin() { e2e_tap_pin "$PIN" 1.5; }

capture one 4 ui turn dl 1
grep -q '"selected_label": "Coffee"' /run/kiosk/status.json || e2e_log "Coffee is not selected"
capture fast 6 fast_turn
status > status-fast.json
ui turn dl -20
sleep 2
grep -q '"selected_label": "Admin"' /run/kiosk/status.json || e2e_log "Admin is not selected"
ui key dl BTN_0
e2e_wait_for 20 grep -q '"screen": "keypad: admin"' /run/kiosk/status.json || e2e_log "no keypad"
sleep 4
# Five taps 1.5 s apart, then the screen's title: 12 s on a quiet host, more under load.
capture keypad 20 tap_pin
e2e_wait_for 20 grep -q '"screen": "admin"' /run/kiosk/status.json || e2e_log "the PIN did not open the screen"
sleep 1
status > status-end.json
# A reload that turns speech off closes the ALSA device, so another program can have it: the
# kiosk's descriptors on /dev/snd before and after (the same process: a reload, not a restart).
pid=$(main_pid)
ls -l "/proc/$pid/fd" > fds-speaking.txt 2>&1
gen=$(status_number generation)
generation_above() { [ "$(status_number generation)" -gt "$1" ]; }
sed 's/^enabled = true$/enabled = false/' /etc/kiosk/kiosk.toml > /etc/kiosk/.kiosk.toml.new && mv /etc/kiosk/.kiosk.toml.new /etc/kiosk/kiosk.toml
e2e_wait_for 30 generation_above "$gen" || e2e_log "the config without speech was not applied"
sleep 2  # the worker closes the device on its own thread
ls -l "/proc/$pid/fd" > fds-off.txt 2>&1
echo "$pid $(main_pid)" > pids-off.txt
status > status-off.json
service_journal
