// sd-bus from libsystemd for Kiosk: the control API on the system bus and `kiosk ctl`, its client.
// Debian: libsystemd-dev. Only the non-variadic calls are used (Swift cannot call C varargs).
#pragma once
#include <systemd/sd-bus.h>
