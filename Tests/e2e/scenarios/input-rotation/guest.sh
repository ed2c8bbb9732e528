# e2e-timeout: 200
# e2e-needs: kiosk
# With the display turned 90°, a tap on the panel hits the item drawn under it. The layout
# is 768x1024: item 2's row is centred at logical (403.8, 739.6), which the panel shows at
# (1024 - 739.6, 403.8) = (284.4, 403.8).
e2e_uinput_start
ui add touch ts 1024 768
e2e_bg kiosk kiosk demo --motion none --rotation 90 --screenshot /results/screenshot.png
sleep 5
ui tap ts 284 404
sleep 3
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_stop kiosk TERM 20
e2e_uinput_stop
