// Opens libasound.so.2 when the kiosk first needs it (include/CAlsa.h; CDynamicLibrary does the work).
#include "CAlsa.h"

KIOSK_OPTIONAL_LIBRARY_DEFINE(Alsa, alsa, KIOSK_ALSA_FUNCTIONS, "libasound.so.2", "ALSA 1.0.16 or later")
