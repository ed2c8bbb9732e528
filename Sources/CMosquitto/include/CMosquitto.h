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

/// `KioskXFunctions`, `kiosk_x_functions()`, `kiosk_x_problem()`: see CDynamicLibrary.h.
KIOSK_OPTIONAL_LIBRARY(Mosquitto, mosquitto, KIOSK_MOSQUITTO_FUNCTIONS)

#pragma clang diagnostic pop
#endif
