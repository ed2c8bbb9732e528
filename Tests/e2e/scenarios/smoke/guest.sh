# e2e-timeout: 180
# The bed itself works, before any kiosk: a vkms card with a connected connector, uinput
# devices of every kind with evdev nodes and the right capabilities, injected events read
# back raw from those nodes, and unplug/replug.

# Display: what the kernel and udev say about card0.
readlink -f /sys/class/drm/card0/device | sed 's#.*/##' > card0-device.txt
for c in /sys/class/drm/card0-*; do
    echo "${c##*/} $(cat "$c/status") $(cat "$c/enabled")"
    sed 's/^/  mode /' "$c/modes"
done > connectors.txt
ls -l /dev/dri > dev-dri.txt 2>&1
e2e_save /sys/kernel/debug/dri/0/name dri-name.txt
e2e_save /sys/kernel/debug/dri/0/state dri-state.txt
udevadm info /dev/dri/card0 > udev-card0.txt 2>&1

# A display unplugged and plugged again: connector state and the uevents udev sees.
udevadm monitor --udev --property --subsystem-match=drm > drm-uevents.txt 2>&1 &
mon=$!
sleep 0.5
e2e_display off; cat /sys/class/drm/card0-Virtual-1/status > display-off.txt
e2e_display detect; cat /sys/class/drm/card0-Virtual-1/status > display-detect.txt
sleep 1
kill -INT $mon

# Input: one of each kind of device.
e2e_uinput_start
ui add touch ts 1024 768
ui add wheel wh
ui add keys kb
ui add dial pm
cp /proc/bus/input/devices input-devices-added.txt
# Owners as udev sets them, and what the unprivileged user can open.
udevadm settle
ls -ln /dev/dri/card0 /dev/input/event* > dev-owners.txt
e2e_run as-kiosk e2e_as kiosk sh -c 'id; : < /dev/dri/card0 && echo card-ok; : < "$(ls /dev/input/event* | tail -n 1)" && echo input-ok'

# A raw reader per device, each running until its device has been quiet for 3 s.
for d in "kiosk-e2e touch ts:touch" "kiosk-e2e wheel wh:wheel" "kiosk-e2e keys kb:keys" "Griffin PowerMate:dial"; do
    name=${d%:*}; short=${d##*:}
    node=$(e2e_event_node "$name") || { e2e_log "no event node for '$name'"; exit 1; }
    udevadm info "$node" > "udev-$short.txt" 2>&1
    # Quiet for 3 s: done (E2E_SLOW: longer where the guest is emulated more slowly, arm64).
    e2e_bg "events-$short" kiosk-uinput --read "$node" --timeout $((3000 * ${E2E_SLOW:-1}))
    e2e_wait_for 10 grep -q '^#' "events-$short.out" || exit 1
done

ui tap ts 100 200
ui drag ts 10 20 500 400 200 5
ui two ts 300 300 600 300 0 100 100 4
ui wheel wh 3 20
ui wheel wh -2 20
ui hires wh 60 3 20
ui key kb KEY_VOLUMEUP ENTER ESC
ui turn pm 5 20
ui turn pm -2 20
ui key pm BTN_0

for short in touch wheel keys dial; do e2e_wait_exit "events-$short" 15; done

# Unplug and replug the key knob: the node goes away and a new one comes.
node=$(e2e_event_node "kiosk-e2e keys kb")
ui del kb
e2e_wait_for 5 test ! -e "$node" && echo "unplugged: $node gone" > hotplug.txt
ui add keys kb
e2e_wait_for 5 e2e_event_node "kiosk-e2e keys kb" && echo "replugged: $(e2e_event_node "kiosk-e2e keys kb")" >> hotplug.txt
e2e_uinput_stop
