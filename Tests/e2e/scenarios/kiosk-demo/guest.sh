# e2e-timeout: 240
# e2e-needs: kiosk
# Template for kiosk scenarios: `kiosk demo` on vkms for a few seconds, a screenshot of
# what is on screen on SIGUSR1, then SIGTERM; its stderr and the PNG come back.

e2e_bg kiosk kiosk demo --screenshot /results/screenshot.png
sleep 5
if ! e2e_alive kiosk; then
    e2e_log "kiosk exited before the screenshot"
    e2e_wait_exit kiosk 1
    exit 0  # the check reports kiosk.rc and kiosk.err
fi
kill -USR1 "$(e2e_pid kiosk)"
# The sidecar is written after the PNG: once it is there the PNG is complete.
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_stop kiosk TERM 15
e2e_save /sys/kernel/debug/dri/0/state dri-state-after.txt
