# e2e-mode: systemd
# e2e-timeout: 480
# e2e-needs: kiosk-old.deb kiosk-new.deb
# The Debian package's life on a device, with dpkg and no network (the image has its Depends):
# installed, enabled, the menu up at boot, the backlight's udev rule in place and (no backlight
# on vkms) no sandbox drop-in; upgraded to a newer build with the service running
# and the config edited locally: the kiosk is restarted (new PID) and the edit kept;
# dpkg-reconfigure with a stand-in backlight: its drop-in; purged: nothing of the package left,
# no user, no unit, no drop-in, no kiosk running. scripts/test builds both
# packages (packaging/build-deb, two versions of one binary) and passes them with --payload.
. /scenario/service.sh
old=/usr/local/bin/kiosk-old.deb new=/usr/local/bin/kiosk-new.deb
# Only the package's kiosk: not the test bed's copy of the binary on PATH.
rm -f /usr/local/bin/kiosk
for deb in "$old" "$new"; do dpkg-deb -f "$deb" Package Version; done > debs.txt 2>&1

# Install: no start (tty1 may be the installer's), enabled for the next boot.
e2e_run install dpkg -i "$old"
dpkg-query -W -f '${Status} ${Version}\n' kiosk > installed.txt 2>&1
systemctl is-enabled kiosk.service > enabled.txt 2>&1
systemctl is-active kiosk.service > active-after-install.txt 2>&1
id kiosk > user.txt 2>&1
# The control API: the group that may call it, and the bus policy.
{ getent group kiosk-control || echo "no group kiosk-control"; ls /usr/share/dbus-1/system.d/org.kiosk.Kiosk1.conf; } > control-api-files.txt 2>&1
command -v kiosk > which-kiosk.txt 2>&1
ls /usr/share/man/man1/kiosk.1.gz /usr/share/man/man5/kiosk.toml.5.gz > man-w.txt 2>&1  # no man-db in the image
# Backlight: the udev rule and the tool are installed; vkms has no backlight, so the postinst
# wrote no drop-in.
ls /usr/lib/udev/rules.d/70-kiosk-backlight.rules /usr/sbin/kiosk-backlight-access \
    /usr/share/man/man8/kiosk-backlight-access.8.gz > backlight-files.txt 2>&1
ls -A /sys/class/backlight > backlight-devices.txt 2>&1
ls -A /etc/systemd/system/kiosk.service.d > dropin-installed.txt 2>&1

# Boot: multi-user.target pulls the enabled unit in; the menu is on screen.
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
sleep 1
main_pid > pid-boot.txt
status > status-boot.json
shot boot
e2e_run render-boot kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /results/render-boot.png

# A local edit of the conffile, which the running kiosk applies by itself.
gen=$(status_number generation)
sed -i 's/^title = "Kiosk"/title = "Edited here"/' /etc/kiosk/kiosk.toml
e2e_wait_for 20 sh -c '[ "$(sed -n "s/.*\"generation\": \([0-9]*\).*/\1/p" /run/kiosk/status.json)" -gt '"$gen"' ]' ||
    e2e_log "the edit was not applied"
md5sum /etc/kiosk/kiosk.toml > edited-md5.txt

# Upgrade while it runs: dpkg must not ask about the edited conffile (stdin is closed) and the
# postinst restarts the kiosk.
pid=$(main_pid)
e2e_run upgrade dpkg -i "$new" < /dev/null
service_wait_ready 60 "$pid" || e2e_log "no new kiosk after the upgrade"
dpkg-query -W -f '${Status} ${Version}\n' kiosk > upgraded.txt 2>&1
main_pid > pid-upgraded.txt
e2e_wait_for 30 sh -c 'p=$(sed -n "s/.*\"pid\": \([0-9]*\).*/\1/p" /run/kiosk/status.json) && [ "$p" != '"$pid"' ]' ||
    e2e_log "the status file is not the new kiosk's"
sleep 1
status > status-upgraded.json
systemctl is-enabled kiosk.service > enabled-upgraded.txt 2>&1
md5sum /etc/kiosk/kiosk.toml > upgraded-md5.txt
ls /etc/kiosk > etc-kiosk-upgraded.txt 2>&1
shot upgraded
e2e_run render-upgraded kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /results/render-upgraded.png

# A backlight as the postinst would see one (vkms has none): a sysfs-shaped tmpfs over
# /sys/class/backlight; `dpkg-reconfigure kiosk` runs the postinst, whose kiosk-backlight-access
# names it in the drop-in; the purge below takes the drop-in away.
mount -t tmpfs e2e-backlight /sys/class/backlight && mkdir /sys/class/backlight/e2e_backlight &&
    echo 100 > /sys/class/backlight/e2e_backlight/brightness
e2e_run reconfigure env DEBIAN_FRONTEND=noninteractive timeout 120 dpkg-reconfigure kiosk < /dev/null
cat /etc/systemd/system/kiosk.service.d/backlight.conf > dropin-reconfigured.txt 2>&1

# Purge: every path of the package gone but the directories other packages own too, and the
# merged-/usr links (/lib -> usr/lib) that no package owns.
dpkg -L kiosk > package-files.txt
# The PIN lockout state the packaged service keeps (StateDirectory=kiosk), before the purge takes it.
ls -ld /var/lib/kiosk /var/lib/kiosk/pin-lock.state > state-before-purge.txt 2>&1
e2e_run purge dpkg --purge kiosk
dpkg-query -W -f '${Status}\n' kiosk > purged-status.txt 2>&1
# What is still there; the directories among it that another package owns, asked of dpkg in one
# call (dpkg -S reads every package's file list: once per path took a minute under TCG).
while read -r path; do
    [ "$path" != /. ] || continue
    [ -e "$path" ] || [ -L "$path" ] || continue
    [ -d "$path" ] && [ -L "$path" ] && continue
    echo "$path"
done < package-files.txt > still-there.txt
while read -r path; do [ -d "$path" ] && echo "$path"; done < still-there.txt > still-there-dirs.txt
if [ -s still-there-dirs.txt ]; then
    # "pkg, pkg: /path" for each path some package owns (and diversion lines, which name it too).
    tr '\n' '\0' < still-there-dirs.txt | xargs -0 dpkg -S 2>/dev/null | sed -n 's/^.*: \(\/.*\)$/\1/p' > owned-dirs.txt
fi
touch owned-dirs.txt
while read -r path; do
    [ -d "$path" ] && grep -qxF -- "$path" owned-dirs.txt && continue
    echo "$path"
done < still-there.txt > left-behind.txt
{ getent passwd kiosk || echo "no user kiosk"; getent group kiosk || echo "no group kiosk"; } > user-purged.txt
systemctl show -p LoadState -p ActiveState kiosk.service > unit-purged.txt 2>&1
ls /etc/systemd/system/multi-user.target.wants/ /var/lib/systemd/deb-systemd-helper-enabled/ \
    /var/lib/systemd/deb-systemd-helper-masked/ > unit-links-purged.txt 2>&1
for p in /proc/[0-9]*; do [ "$(cat "$p/comm" 2>/dev/null)" = kiosk ] && echo "${p#/proc/}"; done > kiosk-processes.txt
ls -d /etc/kiosk /run/kiosk /etc/systemd/system/kiosk.service.d /var/lib/kiosk > etc-run-purged.txt 2>&1
umount /sys/class/backlight
service_journal -u kiosk.service
