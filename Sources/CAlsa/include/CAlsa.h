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

/// `KioskXFunctions`, `kiosk_x_functions()`, `kiosk_x_problem()`: see CDynamicLibrary.h.
KIOSK_OPTIONAL_LIBRARY(Alsa, alsa, KIOSK_ALSA_FUNCTIONS)

#pragma clang diagnostic pop
#endif
