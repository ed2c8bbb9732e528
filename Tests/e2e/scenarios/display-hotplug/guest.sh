# e2e-timeout: 200
# e2e-needs: kiosk
# The display unplugged and plugged again while the kiosk runs: it stops drawing quietly,
# then sets the mode again and redraws in full, with no restart.
e2e_bg kiosk kiosk demo --screenshot /results/screenshot.png
sleep 5
pid_before=$(e2e_pid kiosk)
e2e_display off
sleep 3
e2e_display detect
sleep 5
e2e_alive kiosk && echo "$pid_before" > /results/alive-after-replug.txt
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_stop kiosk TERM 20
offset=$(sed -n 's/^offset=//p' /results/screenshot.png.txt)
e2e_run headless kiosk demo --headless-offset "$offset" --size 1024x768 --out /results/headless.png
