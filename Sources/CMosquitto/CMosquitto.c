// Opens libmosquitto.so.1 when the kiosk first needs it (include/CMosquitto.h; CDynamicLibrary does the work).
#include "CMosquitto.h"

KIOSK_OPTIONAL_LIBRARY_DEFINE(Mosquitto, mosquitto, KIOSK_MOSQUITTO_FUNCTIONS, "libmosquitto.so.1", "libmosquitto 1.6 or later")
