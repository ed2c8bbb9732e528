# e2e-timeout: 900
# e2e-needs: kiosk
# e2e-alone: taps spaced in time and 20 s capture windows
# A PIN-locked screen on vkms, by touch and by knob: the hash from `kiosk hash-pin` on the
# device; five wrong PINs by touch lock the keypad out (one log line, counted in the status, a
# countdown on screen, the right PIN refused meanwhile); after the lockout the right PIN by
# knob (a PowerMate: turn, press) opens the screen; 5 s idle locks it again; the right PIN by
# touch opens it; leaving locks it. The PIN reaches neither log nor status. The keypad and the
# opened screen are each the picture `kiosk render` draws of that state.
# Then the lockout survives a restart (its state in /results/state, as --state-dir): five wrong
# PINs lock out (lockout 40 s here), SIGKILL, a new kiosk still refuses the right PIN until the
# lockout's end, then five more wrong PINs lock out for twice as long; killed and started again,
# that doubled lockout is still running.
PIN=739146
hash=$(printf '%s\n' "$PIN" | kiosk hash-pin 2> /results/hash-pin.err)
echo "$?" > /results/hash-pin.rc
echo "$hash" > /results/hash.txt
sed "s|PIN_HASH|$hash|" /scenario/pin.toml > /results/kiosk.toml
kiosk check-config /results/kiosk.toml > /results/check-config.txt 2>&1 || e2e_log "the config is refused: $(cat /results/check-config.txt)"
e2e_uinput_start
ui add touch ts 1024 768
ui add keys kb
ui add dial dl
e2e_bg kiosk kiosk run --config /results/kiosk.toml --state-dir /results/state
pid=$(e2e_pid kiosk)

field() { sed -n "s/.*\"$1\": \([^,}]*\).*/\1/p" /results/status.json 2>/dev/null; }
on_screen() { grep -q "\"screen\": \"$1\"" /results/status.json 2>/dev/null; }
failures() { field pin_failures; }
shot() {
    rm -f /results/screenshot.png.txt
    kill -USR1 "$pid"
    e2e_wait_for 20 test -e /results/screenshot.png.txt && cp /results/screenshot.png "/results/$1.png"
}
tap_key() { e2e_tap_keypad "$1"; }
tap_pin() { e2e_tap_pin "$1"; }
# The knob: the status never says which key is selected (it would tell the PIN), so turn back
# past the first key (the keypad does not wrap), then forward to key index $1, and press.
knob_key() {
    ui turn dl -12
    sleep 0.3
    [ "$1" -gt 0 ] && ui turn dl "$1"
    sleep 0.5
    ui key dl BTN_0
    sleep 0.5
}
# Digit d is key d-1, "0" key 10, OK key 11.
knob_pin() { for k in $(echo "$1" | sed 's/./& /g'); do knob_key $(( k == 0 ? 10 : k - 1 )); done; knob_key 11; }
# Five wrong PINs by touch, each counted in the status before the next.
five_wrong() {
    n=1
    while [ $n -le 5 ]; do
        tap_pin 1111
        e2e_wait_for 20 sh -c "grep -q '\"pin_failures\": $n[,}]' /results/status.json" || e2e_log "wrong PIN $n not counted"
        n=$((n + 1))
    done
}

e2e_wait_for 30 grep -q "menu on screen" /results/kiosk.err || e2e_log "the menu did not come up"
e2e_wait_for 30 test -e /results/status.json
for d in "touch ts" "keys kb" "PowerMate"; do
    e2e_wait_for 30 grep -q "input device added: .*$d" /results/kiosk.err || e2e_log "the kiosk did not open $d"
done
cp /results/status.json /results/status-start.json

# Enter on "Admin" shows the keypad, not the screen.
ui key kb KEY_ENTER
e2e_wait_for 20 on_screen "keypad: admin" || e2e_log "no keypad"
sleep 1  # the keypad slides in (transition = "slide")
shot keypad-empty
# The preview is the device: `kiosk render --keypad` of the same state is the same picture.
e2e_run render-keypad kiosk render /results/kiosk.toml --screen admin --keypad --size 1024x768 --out /results/render-keypad.png
# Three digits: dots in the title, the highlight back on "5", the digits nowhere.
tap_key 1; tap_key 7; tap_key 3
shot keypad-three-digits
tap_key del; tap_key del; tap_key del

# Five wrong PINs by touch: the fifth locks the keypad out.
five_wrong
e2e_wait_for 10 grep -q "keypad locked out" /results/kiosk.err || e2e_log "no lockout"
# The right PIN during the lockout (20 s) opens nothing.
tap_pin "$PIN"
cp /results/status.json /results/status-during-lockout.json
shot lockout
# The countdown ends; the right PIN by knob.
sleep 20
knob_pin "$PIN"
e2e_wait_for 20 on_screen admin || e2e_log "the right PIN by knob did not open the screen"
cp /results/status.json /results/status-unlocked-by-knob.json
# 5 s without input: locked again, back on the home screen.
# (The status, not the log line: the status file is rewritten after the pass that logged it.)
e2e_wait_for 30 sh -c "grep -q '\"screen\": \"main\"' /results/status.json && grep -q '\"locked_screens\": \[\"admin\"\]' /results/status.json" ||
    e2e_log "no idle relock"
cp /results/status.json /results/status-relocked.json

# The right PIN by touch opens it; Escape leaves it and it locks.
ui key kb KEY_ENTER
e2e_wait_for 20 on_screen "keypad: admin" || e2e_log "no keypad the second time"
tap_pin "$PIN"
e2e_wait_for 20 on_screen admin || e2e_log "the right PIN by touch did not open the screen"
cp /results/status.json /results/status-unlocked-by-touch.json
# A sub-screen, opened above home: its back button and all, as `kiosk render --screen` draws it.
sleep 1
shot admin-open
e2e_run render-admin kiosk render /results/kiosk.toml --screen admin --size 1024x768 --out /results/render-admin.png
ui key kb KEY_ESC
e2e_wait_for 20 on_screen main || e2e_log "Escape did not leave the screen"
sleep 0.5
cp /results/status.json /results/status-left.json
e2e_stop kiosk TERM 20

# The lockout across a restart: a config with a longer lockout, so that it is still running when
# the kiosk is back under TCG; the same state folder.
sed 's/^lockout = 20$/lockout = 40/' /results/kiosk.toml > /results/kiosk-restart.toml
ls -ld /results/state /results/state/pin-lock.state > /results/state-modes.txt 2>&1
# Starts kiosk NAME ($1) on the restart config and waits for its menu and touchscreen.
start_kiosk() {
    rm -f /results/status.json
    e2e_bg "$1" kiosk run --config /results/kiosk-restart.toml --state-dir /results/state
    pid=$(e2e_pid "$1")
    e2e_wait_for 60 grep -q "menu on screen" "/results/$1.err" || e2e_log "$1: the menu did not come up"
    e2e_wait_for 30 test -e /results/status.json
    e2e_wait_for 30 grep -q "input device added: .*touch ts" "/results/$1.err" || e2e_log "$1: the kiosk did not open the touchscreen"
}
open_keypad() {
    ui key kb KEY_ENTER
    e2e_wait_for 20 on_screen "keypad: admin" || e2e_log "no keypad"
    sleep 1
}
start_kiosk kiosk2
open_keypad
five_wrong
e2e_wait_for 10 grep -q "keypad locked out" /results/kiosk2.err || e2e_log "kiosk2: no lockout"
cp /results/state/pin-lock.state /results/state-locked.txt
e2e_stop kiosk2 KILL 10
e2e_log "kiosk2 killed in its lockout"

start_kiosk kiosk3
e2e_wait_for 10 grep -q "PIN lockout restored" /results/kiosk3.err || e2e_log "kiosk3: no lockout restored"
open_keypad
shot restart-lockout
# The right PIN, while the restored lockout runs: refused.
tap_pin "$PIN"
sleep 1
cp /results/status.json /results/status-restart-refused.json
# What is left of it, then five wrong PINs: counted (the lockout is over), and a lockout twice as long.
left=$(sed -n 's/.*PIN lockout restored from .*: \([0-9]*\) s left.*/\1/p' /results/kiosk3.err | head -n 1)
e2e_log "kiosk3: ${left:-?} s of the lockout left at start"
sleep $(( ${left:-40} + 1 ))
five_wrong
e2e_wait_for 10 grep -q "keypad locked out" /results/kiosk3.err || e2e_log "kiosk3: no lockout"
cp /results/status.json /results/status-doubled.json
e2e_stop kiosk3 KILL 10

# Killed in the doubled lockout and started again: it goes on.
start_kiosk kiosk4
e2e_wait_for 10 grep -q "PIN lockout restored" /results/kiosk4.err || e2e_log "kiosk4: no lockout restored"
open_keypad
tap_pin "$PIN"
sleep 1
cp /results/status.json /results/status-restart-doubled.json
cp /results/state/pin-lock.state /results/state-doubled.txt
ls -ld /results/state/pin-lock.state /results/state/pin-lock.created > /results/state-modes-end.txt 2>&1
e2e_stop kiosk4 TERM 20
e2e_uinput_stop
