# e2e-timeout: 200
# e2e-needs: kiosk
# With rotation 90 the kiosk lays out a portrait screen and turns it onto the landscape panel:
# the scanout screenshot is the headless portrait render turned clockwise.
e2e_bg kiosk kiosk demo --rotation 90 --screenshot /results/screenshot.png
sleep 6
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_stop kiosk TERM 20
offset=$(sed -n 's/^offset=//p' /results/screenshot.png.txt)
e2e_run headless kiosk demo --headless-offset "$offset" --size 768x1024 --out /results/headless.png
# The headless output turns the frame itself, as `kiosk render` will.
e2e_run headless-panel kiosk demo --headless-offset "$offset" --rotation 90 --size 1024x768 --out /results/headless-panel.png
