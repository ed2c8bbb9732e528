# e2e-timeout: 300
# e2e-needs: kiosk
# e2e-alone: how many frames two transitions and a flick draw
# Transitions on vkms at 800x600: two fingers on "Drinks" open nothing; a tap opens it (a push
# slide), a flick scrolls its list, Escape goes back (a pop slide). The kiosk's CPU time over
# those frames (utime+stime from /proc/PID/stat) and the frames it presented (kiosk_frames_total)
# give the CPU time per frame; the vblank-gap histogram comes from its frame stats at exit. The
# last screenshot (home, at rest) is compared with `kiosk render` of the home screen.
mkdir -p /etc/kiosk
cp /scenario/kiosk.toml /etc/kiosk/kiosk.toml
status() { cat /run/kiosk/status.json 2>/dev/null; }
screen() { status | sed -n 's/.*"screen": "\([^"]*\)".*/\1/p'; }
frames() { sed -n 's/^kiosk_frames_total \([0-9]*\)$/\1/p' /run/kiosk/kiosk.prom; }
cpu() { awk '{ print $14 + $15 }' "/proc/$(e2e_pid kiosk)/stat"; }
# CPU ticks and frames so far, once the metrics file has caught up (written at most once a second).
sample() { sleep 1.5; echo "$(cpu) $(frames)" > "/results/$1.txt"; }

e2e_uinput_start
ui add touch ts 800 600
ui add keys kb
e2e_bg kiosk kiosk run --config /etc/kiosk/kiosk.toml
e2e_wait_for 60 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
e2e_alive kiosk || { e2e_log "the kiosk is not running"; e2e_wait_exit kiosk 1; e2e_uinput_stop; exit 0; }
sleep 3
{ getconf CLK_TCK 2>/dev/null || echo 100; } > clk-tck.txt
# Where "Drinks" (the selected row) is, as the kiosk lays it out (the touch device's range is the
# screen's, so its units are pixels).
kiosk render /etc/kiosk/kiosk.toml --layout /results/layout.json --size 800x600 > /dev/null
set -- $(grep '"index": [0-9]*, "label": "Drinks"' /results/layout.json | head -n 1 | sed 's/.*"rect": \[\([^]]*\)\].*/\1/' | tr -d ',')
dx=$(awk "BEGIN { print int($1 + $3 / 2) }"); dy=$(awk "BEGIN { print int($2 + $4 / 2) }")
e2e_log "ui: \"Drinks\" at $dx,$dy"

# Two fingers landing on "Drinks", lifted together: nothing opens.
ui two ts "$dx" "$dy" $((dx + 25)) $((dy + 10)) 0 0 80 1
sleep 1
screen > screen-after-two-fingers.txt

sample before
ui tap ts "$dx" "$dy"                  # push
e2e_wait_for 10 sh -c '[ "$(sed -n "s/.*\"screen\": \"\([^\"]*\)\".*/\1/p" /run/kiosk/status.json)" = drinks ]'
screen > screen-after-tap.txt
sleep 1
ui drag ts 400 520 400 220 60 6        # a flick up the list
sleep 2
ui key kb KEY_ESC                      # pop
sleep 1
screen > screen-after-back.txt
sample after

rm -f /run/kiosk/screenshot.png
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 20 test -s /run/kiosk/screenshot.png.txt && sleep 0.5 && cp /run/kiosk/screenshot.png /results/final.png
e2e_stop kiosk TERM 20
e2e_uinput_stop
e2e_run render kiosk render /etc/kiosk/kiosk.toml --screen main --size 800x600 --out /results/render-main.png
