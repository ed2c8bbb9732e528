# e2e-timeout: 200
# e2e-needs: kiosk
# A console switch away from the kiosk's VT hands the display to the console (fbcon);
# switching back gives it to the kiosk, which redraws. No restart.
chvt 1
e2e_bg kiosk kiosk demo --terminal /dev/tty1 --screenshot /results/screenshot.png
sleep 5
e2e_save /sys/kernel/debug/dri/0/state dri-state-kiosk.txt
chvt 2
sleep 3
e2e_save /sys/kernel/debug/dri/0/state dri-state-away.txt
chvt 1
sleep 5
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_stop kiosk TERM 20
offset=$(sed -n 's/^offset=//p' /results/screenshot.png.txt)
e2e_run headless kiosk demo --headless-offset "$offset" --size 1024x768 --out /results/headless.png
