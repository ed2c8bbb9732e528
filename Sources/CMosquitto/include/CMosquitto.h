// libmosquitto (the Eclipse Mosquitto client library) for `[mqtt]`, opened when a config first
// asks for a broker (dlopen), not when the kiosk starts: a kiosk without `[mqtt]` neither loads it
// (nor the TLS libraries it brings) nor needs it installed (the Debian package Recommends it).
// mosquitto.h gives the types, constants and declarations; each function is called through a
// pointer of the header's own type. Debian: libmosquitto-dev for the build (12 ships 2.0.11, 13 2.0.21).
#ifndef KIOSK_CMOSQUITTO_H
#define KIOSK_CMOSQUITTO_H
#include <mosquitto.h>
// MQTT 5 property identifiers and reason codes (the maximum packet size the kiosk advertises).
#include <mqtt_protocol.h>
#include <stddef.h>
#include "CDynamicLibrary.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/// The functions the kiosk calls, each named once.
#define KIOSK_MOSQUITTO_FUNCTIONS(X) \
    X(mosquitto_lib_init) \
    X(mosquitto_lib_cleanup) \
    X(mosquitto_new) \
    X(mosquitto_destroy) \
    X(mosquitto_connect_callback_set) \
    X(mosquitto_disconnect_callback_set) \
    X(mosquitto_message_callback_set) \
    X(mosquitto_will_set) \
    X(mosquitto_username_pw_set) \
    X(mosquitto_tls_set) \
    X(mosquitto_int_option) \
    X(mosquitto_connect) \
    X(mosquitto_connect_bind_v5) \
    X(mosquitto_property_add_int32) \
    X(mosquitto_property_free_all) \
    X(mosquitto_reconnect) \
    X(mosquitto_disconnect) \
    X(mosquitto_publish) \
    X(mosquitto_subscribe) \
    X(mosquitto_socket) \
    X(mosquitto_want_write) \
    X(mosquitto_loop_read) \
    X(mosquitto_loop_write) \
    X(mosquitto_loop_misc) \
    X(mosquitto_strerror) \
    X(mosquitto_reason_string) \
    X(mosquitto_connack_string)

/// The functions, resolved from libmosquitto.so.1.
typedef struct {
    KIOSK_MOSQUITTO_FUNCTIONS(KIOSK_FUNCTION_FIELD)
} KioskMosquittoFunctions;

/// The functions from libmosquitto.so.1, opened on the first call (once, from any thread); NULL when the
/// library or a function is missing, and then `kiosk_mosquitto_problem` says which.
const KioskMosquittoFunctions * _Nullable kiosk_mosquitto_functions(void);
/// Why `kiosk_mosquitto_functions` returned NULL; empty otherwise.
const char * _Nonnull kiosk_mosquitto_problem(void);
/// Why `soname` cannot serve as this library (a test's with a missing one); NULL when it can.
/// The text is the caller's `problem` buffer.
const char * _Nullable kiosk_mosquitto_problem_opening(const char * _Nonnull soname, char * _Nonnull problem, size_t problem_size);

#pragma clang diagnostic pop
#endif
