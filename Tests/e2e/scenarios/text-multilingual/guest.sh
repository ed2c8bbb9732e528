# e2e-timeout: 240
# e2e-needs: kiosk
# The kiosk, as the unprivileged user `kiosk` (HOME not writable, as on a device), shows a menu in
# a dozen scripts plus colour emoji on vkms. The fonts and fontconfig's setup come from the same
# Debian packages as on the host (base.cpio), with a warm fontconfig cache: the host compares the
# scanout screenshot with its own `kiosk render` of the same file, and reads from the kiosk's
# memory map which fonts and fontconfig caches it used.
mkdir -p /etc/kiosk /run/kiosk
cp /scenario/kiosk.toml /etc/kiosk/kiosk.toml
cp /scenario/kiosk.toml /results/kiosk.toml
chown kiosk:kiosk /run/kiosk
sha256sum "$(command -v kiosk)" | cut -d' ' -f1 > kiosk.sha256
caches() { for f in /var/cache/fontconfig/*; do echo "$f $(stat -c '%s %Y' "$f") $(md5sum < "$f" | cut -c1-32)"; done; }
caches > fontconfig-cache-before.txt
# fontconfig trusts a cache while its directory's mtime is the one recorded in it, to the nanosecond.
stat -c '%y %n' /usr/share/fonts /usr/share/fonts/truetype/* > font-dirs.txt
status() { cat /run/kiosk/status.json 2>/dev/null; }

e2e_run check e2e_as kiosk kiosk check-config /etc/kiosk/kiosk.toml
# su's shell runs the kiosk; the status file gives its pid, the subshell its exit status.
( e2e_as kiosk kiosk run --config /etc/kiosk/kiosk.toml > kiosk.out 2> kiosk.err; echo $? > kiosk.rc ) &
e2e_wait_for 90 grep -q '"screen": "main"' /run/kiosk/status.json || e2e_log "no status file"
pid=$(status | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
    e2e_log "the kiosk is not running"
    e2e_wait_for 10 test -s kiosk.rc
    exit 0  # the check reports kiosk.rc and kiosk.err
fi
sleep 2
status > status.json
grep -E '^(Uid|Gid|Groups):' "/proc/$pid/status" > kiosk-ids.txt
kill -USR1 "$pid"
# The sidecar is written after the PNG: once it is there the PNG is complete.
e2e_wait_for 30 test -e /run/kiosk/screenshot.png.txt || e2e_log "no screenshot after SIGUSR1"
cp /run/kiosk/screenshot.png /run/kiosk/screenshot.png.txt /results/
# Font files and fontconfig caches are mmapped while in use.
awk '$6 ~ /^\/(usr\/share\/fonts|var\/cache\/fontconfig)\// { print $6 }' "/proc/$pid/maps" | sort -u > kiosk-mapped.txt
kill -TERM "$pid"
e2e_wait_for 20 test -s kiosk.rc || { e2e_log "the kiosk did not exit"; kill -KILL "$pid"; }

# The same file rendered headless in the guest, by the same user.
e2e_run render e2e_as kiosk kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /run/kiosk/render-guest.png
cp /run/kiosk/render-guest.png /results/ 2>/dev/null
# Anything fontconfig or the font code said; nothing is expected.
grep -ihE 'fontconfig|font|glyph|cache dir' check.err kiosk.err render.err > font-messages.txt
caches > fontconfig-cache-after.txt

# Control: with one font directory's cache made stale (its mtime changed), the same render as the
# same user has to scan that directory and has nowhere to write the cache; fontconfig says so. A
# device whose cache is stale would print this at every start.
touch /usr/share/fonts/truetype/wqy
e2e_run render-stale e2e_as kiosk kiosk render /etc/kiosk/kiosk.toml --size 1024x768 --out /run/kiosk/render-stale.png
