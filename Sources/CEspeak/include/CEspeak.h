// libespeak-ng for `[speech]`, opened when a config first turns speech on (dlopen), not when the
// kiosk starts: a kiosk that does not speak neither loads it nor needs it installed (the Debian
// package Recommends it). Its espeak_ng_* API returns a status instead of exiting the process on
// missing data (espeak_Initialize's default). The kiosk synthesizes in ENOUTPUT_MODE_SYNCHRONOUS
// without audio output and gets the samples through its synth callback, so that it plays them
// itself on the ALSA device the config names (Sources/CAlsa). The header gives the types,
// constants and declarations; each function is called through a pointer of the header's own
// type. Debian: libespeak-ng-dev for the build.
#ifndef KIOSK_CESPEAK_H
#define KIOSK_CESPEAK_H
#include <stdio.h>
#include <wchar.h>
#include <espeak-ng/espeak_ng.h>
#include <stddef.h>
#include "CDynamicLibrary.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/// The functions the kiosk calls, each named once.
#define KIOSK_ESPEAK_FUNCTIONS(X) \
    X(espeak_ng_InitializePath) \
    X(espeak_ng_Initialize) \
    X(espeak_ng_ClearErrorContext) \
    X(espeak_ng_InitializeOutput) \
    X(espeak_Terminate) \
    X(espeak_ng_GetSampleRate) \
    X(espeak_SetSynthCallback) \
    X(espeak_ng_SetVoiceByName) \
    X(espeak_ng_SetParameter) \
    X(espeak_ng_Synthesize) \
    X(espeak_ng_GetStatusCodeMessage)

/// `KioskXFunctions`, `kiosk_x_functions()`, `kiosk_x_problem()`: see CDynamicLibrary.h.
KIOSK_OPTIONAL_LIBRARY(Espeak, espeak, KIOSK_ESPEAK_FUNCTIONS)

#pragma clang diagnostic pop
#endif
