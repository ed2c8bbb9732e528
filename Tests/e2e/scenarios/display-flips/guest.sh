# e2e-timeout: 300
# e2e-needs: kiosk
# kiosk demo flips 300 frames of its animation on vkms, a screenshot is taken from the
# scanout buffer on SIGUSR1, and after it exits the CRTC shows what it showed before.
e2e_save /sys/kernel/debug/dri/0/state dri-state-before.txt
e2e_bg kiosk kiosk demo --flips 300 --screenshot /results/screenshot.png
# 300 vblank-paced flips take at least 5 s: ask for the screenshot well before the end.
e2e_wait_for 60 grep -q "display /dev/dri" /results/kiosk.err
sleep 2
kill -USR1 "$(e2e_pid kiosk)"
e2e_wait_for 30 test -e /results/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
e2e_save /sys/kernel/debug/dri/0/state dri-state-during.txt
e2e_wait_exit kiosk 240
e2e_save /sys/kernel/debug/dri/0/state dri-state-after.txt
e2e_save /sys/kernel/debug/dri/0/framebuffer dri-framebuffers-after.txt
# The same frame rendered without a display, at the offset the screenshot recorded.
offset=$(sed -n 's/^offset=//p' /results/screenshot.png.txt)
e2e_run headless kiosk demo --headless-offset "$offset" --size 1024x768 --out /results/headless.png
