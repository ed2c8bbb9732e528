# e2e-mode: systemd
# e2e-timeout: 300
# The systemd guest works: systemd is PID 1, systemd-modules-load loaded vkms and uinput,
# systemd-udevd tags what libinput needs, services can be started, and uinput devices appear.

cat /proc/1/comm > pid1.txt
systemctl is-active systemd-udevd.service systemd-modules-load.service systemd-journald.service > units-active.txt 2>&1
lsmod > lsmod.txt
readlink -f /sys/class/drm/card0/device | sed 's#.*/##' > card0-device.txt
for c in /sys/class/drm/card0-*; do echo "${c##*/} $(cat "$c/status")"; done > connectors.txt
udevadm info /dev/dri/card0 > udev-card0.txt 2>&1

# A service started and waited for, as the kiosk's service scenarios will do.
e2e_run systemd-run systemd-run --unit=e2e-probe --wait --collect -p StandardOutput=journal sh -c 'echo probe-ran-as-$(id -un)'
journalctl -u e2e-probe --no-pager > probe-journal.txt 2>&1

e2e_uinput_start
ui add touch ts
node=$(e2e_event_node "kiosk-e2e touch ts") || exit 1
udevadm settle
udevadm info "$node" > udev-touch.txt 2>&1
e2e_uinput_stop

# The image's fontconfig cache is valid: an unprivileged user without a writable cache directory
# (as the kiosk's service user) lists the fonts from it, without a word on stderr.
e2e_run fc-list setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent fc-list
