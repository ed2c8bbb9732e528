// libasound (ALSA) for playing spoken menu items, opened with espeak-ng when a config first turns
// speech on (dlopen), not when the kiosk starts (the Debian package Recommends it). The header
// gives the types and constants; each PCM call goes through a pointer of the header's own type.
// Debian: libasound2-dev for the build.
#ifndef KIOSK_CALSA_H
#define KIOSK_CALSA_H
#include <alsa/asoundlib.h>
#include <stddef.h>
#include "CDynamicLibrary.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/// The functions the kiosk calls, each named once.
#define KIOSK_ALSA_FUNCTIONS(X) \
    X(snd_pcm_open) \
    X(snd_pcm_nonblock) \
    X(snd_pcm_set_params) \
    X(snd_pcm_close) \
    X(snd_pcm_writei) \
    X(snd_pcm_recover) \
    X(snd_pcm_drain) \
    X(snd_pcm_prepare) \
    X(snd_pcm_drop) \
    X(snd_strerror)

/// The functions, resolved from libasound.so.2.
typedef struct {
    KIOSK_ALSA_FUNCTIONS(KIOSK_FUNCTION_FIELD)
} KioskAlsaFunctions;

/// The functions from libasound.so.2, opened on the first call (once, from any thread); NULL when the
/// library or a function is missing, and then `kiosk_alsa_problem` says which.
const KioskAlsaFunctions * _Nullable kiosk_alsa_functions(void);
/// Why `kiosk_alsa_functions` returned NULL; empty otherwise.
const char * _Nonnull kiosk_alsa_problem(void);
/// Why `soname` cannot serve as this library (a test's with a missing one); NULL when it can.
/// The text is the caller's `problem` buffer.
const char * _Nullable kiosk_alsa_problem_opening(const char * _Nonnull soname, char * _Nonnull problem, size_t problem_size);

#pragma clang diagnostic pop
#endif
