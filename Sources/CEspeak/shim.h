// libespeak-ng (Debian: libespeak-ng-dev): its espeak_ng_* API, whose calls return a status
// instead of exiting the process on missing data (espeak_Initialize's default). The kiosk
// synthesizes in ENOUTPUT_MODE_SYNCHRONOUS without audio output and gets the samples through its
// synth callback, so that it plays them itself on the ALSA device the config names (Sources/CAlsa).
#include <stdio.h>
#include <stddef.h>
#include <wchar.h>
#include <espeak-ng/espeak_ng.h>
