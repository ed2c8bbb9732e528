// Opens libespeak-ng.so.1 when the kiosk first needs it (include/CEspeak.h; CDynamicLibrary does the work).
#include "CEspeak.h"

KIOSK_OPTIONAL_LIBRARY_DEFINE(Espeak, espeak, KIOSK_ESPEAK_FUNCTIONS, "libespeak-ng.so.1", "espeak-ng 1.49 or later")
