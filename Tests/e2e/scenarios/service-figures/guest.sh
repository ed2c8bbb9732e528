# e2e-mode: systemd
# e2e-timeout: 900
# e2e-needs: kiosk
# e2e-figures: start-up, RSS and idle CPU
# Figures for BENCHMARKS.md ("Service"), measured on the installed service (TCG guest):
#   startup.txt  exec -> READY=1 (sent after the first page flip), from systemd's own
#                timestamps, and exec -> the "menu on screen" journal line; 5 restarts
#   memory.txt   RSS from /proc/PID/smaps with and without the DRM mappings (dumb buffers),
#                at two modes
#   idle-cpu.txt utime + stime over 60 idle seconds
. /scenario/service.sh

service_install
# The backlight opening kiosk-backlight-access writes on a device with a backlight (vkms has
# none): the exposure is measured with it. And the mechanism itself, on a sysfs file that exists
# here: a ReadWritePaths= naming a /sys/class link makes the device's file writable under
# ProtectKernelTunables=, which leaves it read-only without it.
mkdir -p /etc/systemd/system/kiosk.service.d
printf '[Service]\nReadWritePaths=-/sys/class/backlight/e2e_backlight/brightness\n' > /etc/systemd/system/kiosk.service.d/backlight.conf
systemctl daemon-reload
systemd-analyze security --no-pager kiosk.service > security.txt 2>&1
q=$(cat /sys/class/net/lo/tx_queue_len)
systemd-run --wait --quiet --pipe -p ProtectKernelTunables=yes sh -c "echo $q > /sys/class/net/lo/tx_queue_len" > sysfs-without.txt 2>&1; echo "rc=$?" >> sysfs-without.txt
systemd-run --wait --quiet --pipe -p ProtectKernelTunables=yes -p ReadWritePaths=/sys/class/net/lo/tx_queue_len \
    sh -c "echo $q > /sys/class/net/lo/tx_queue_len" > sysfs-with.txt 2>&1; echo "rc=$?" >> sysfs-with.txt
service_boot || e2e_log "kiosk.service did not become active"
e2e_wait_for 30 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"

# Startup: ExecMainStartTimestampMonotonic is the fork/exec, ActiveEnterTimestampMonotonic the
# READY=1 that the kiosk sends from the first flip's completion.
startup() {
    m=$(systemctl show -p ExecMainStartTimestampMonotonic --value kiosk.service)
    a=$(systemctl show -p ActiveEnterTimestampMonotonic --value kiosk.service)
    p=$(main_pid)
    f=$(journalctl -b -o json --output-fields=MESSAGE,_PID -u kiosk.service --no-pager |
        grep "\"_PID\":\"$p\"" | grep '"MESSAGE":"menu on screen"' | sed -n 's/.*"__MONOTONIC_TIMESTAMP":"\([0-9]*\)".*/\1/p' | head -n 1)
    echo "$1 exec_to_ready_ms=$(( (a - m) / 1000 )) exec_to_menu_log_ms=$(( (${f:-$m} - m) / 1000 ))" >> startup.txt
}
sleep 2
startup boot
i=1
while [ $i -le 5 ]; do
    old=$(main_pid)
    systemctl restart kiosk.service
    service_wait_ready 60 "$old"
    sleep 2
    startup "restart-$i"
    i=$((i + 1))
done

# Idle CPU: nothing moves, nothing should wake the loop but the watchdog timer.
sleep 5
pid=$(main_pid)
e2e_log "figures: $(cat startup.txt | tr '\n' ';') idle CPU over 60 s next"
t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
sleep 60
t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
echo "pid=$pid ticks_per_second=$(getconf CLK_TCK) cpu_ticks_over_60s=$((t1 - t0)) same_pid=$([ "$(main_pid)" = "$pid" ] && echo yes || echo no)" > idle-cpu.txt

# Memory at two modes. vkms offers the DMT modes; 800x480 is not one, so the nearest small
# mode is used when it is missing (memory.txt says which).
systemctl stop kiosk.service
kiosk displays > displays.txt 2>&1
memory() {
    mode=$1
    sed "s/^\[display\]$/[display]\nmode = \"$mode\"/" /scenario/systemd/kiosk.toml > /etc/kiosk/kiosk.toml
    systemctl start kiosk.service
    service_wait_ready 60 || { echo "$mode failed: $(systemctl show -p Result --value kiosk.service)" >> memory.txt; return; }
    sleep 5
    p=$(main_pid)
    cp "/proc/$p/smaps" "smaps-$mode.txt"
    awk -v mode="$mode" '
        /^[0-9a-f]+-[0-9a-f]+ / { drm = ($6 ~ /^\/dev\/dri\//) }
        /^Rss:/ { total += $2; if (drm) scanout += $2 }
        END { printf "%s rss_kib=%d drm_mapped_rss_kib=%d rss_without_scanout_kib=%d\n", mode, total, scanout, total - scanout }
    ' "/proc/$p/smaps" >> memory.txt
    grep -E '^(VmRSS|RssAnon|RssFile|VmHWM):' "/proc/$p/status" | tr -s ' \t' ' ' | tr '\n' ' ' >> memory.txt; echo >> memory.txt
    systemctl stop kiosk.service
}
if grep -q '800x480' displays.txt; then memory 800x480; else echo "800x480 not offered by vkms; 800x600 instead" >> memory.txt; memory 800x600; fi
memory 1024x768
memory 1920x1080
service_journal -u kiosk.service
