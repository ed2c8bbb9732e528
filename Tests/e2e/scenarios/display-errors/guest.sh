# e2e-timeout: 120
# e2e-needs: kiosk
# Each way of not getting a display is one clear line on stderr and exit status 1.
e2e_run no-connector kiosk demo --connector HDMI-A-9
e2e_run no-mode kiosk demo --mode 123x456
e2e_run bad-mode kiosk demo --mode 800by480
chmod 600 /dev/dri/card0
e2e_run no-permission e2e_as kiosk kiosk demo
chmod 660 /dev/dri/card0
e2e_run displays kiosk displays
# No DRM device at all: an empty /dev/dri.
mount -t tmpfs none /dev/dri
e2e_run no-device kiosk demo
e2e_run no-device-displays kiosk displays
umount /dev/dri
