// libmosquitto (the Eclipse Mosquitto client library) for `[mqtt]`: Home Assistant and fleets.
// Debian: libmosquitto-dev (scripts/apt-packages.txt); Debian 12 ships 2.0.11, Debian 13 2.0.21.
#include <mosquitto.h>
// MQTT 5 property identifiers and reason codes (the maximum packet size the kiosk advertises).
#include <mqtt_protocol.h>
