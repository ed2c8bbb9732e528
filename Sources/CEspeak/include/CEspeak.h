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

/// The functions, resolved from libespeak-ng.so.1.
typedef struct {
    KIOSK_ESPEAK_FUNCTIONS(KIOSK_FUNCTION_FIELD)
} KioskEspeakFunctions;

/// The functions from libespeak-ng.so.1, opened on the first call (once, from any thread); NULL when the
/// library or a function is missing, and then `kiosk_espeak_problem` says which.
const KioskEspeakFunctions * _Nullable kiosk_espeak_functions(void);
/// Why `kiosk_espeak_functions` returned NULL; empty otherwise.
const char * _Nonnull kiosk_espeak_problem(void);
/// Why `soname` cannot serve as this library (a test's with a missing one); NULL when it can.
/// The text is the caller's `problem` buffer.
const char * _Nullable kiosk_espeak_problem_opening(const char * _Nonnull soname, char * _Nonnull problem, size_t problem_size);

#pragma clang diagnostic pop
#endif
