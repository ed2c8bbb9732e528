"""MQTT: discovery documents and retained state read back with mosquitto_sub; a value set by
mosquitto_pub on screen as `kiosk render --value` draws it; screen, home and toggle commands;
bad commands answered on the error topic, and so are an item not published and a locked screen
with its published items (none of their commands ran); a burst of 1,000 commands dropped over the rate limit
while the knob moves; the broker killed and restarted: the knob moved meanwhile, the kiosk
reconnected and published its state again. Notes the RSS with and without [mqtt] and the
MQTT-message-to-flip latency."""
import json
import re

from e2e import kiosk

P = "house/hall"
NODE = "hall-panel"


def lines(r, name):
    out = {}
    for line in r.text(name).splitlines():
        topic, _, payload = line.partition(" ")
        out[topic] = payload
    return out


def check(r):
    r.expect_rc("check", 0)
    r.expect_rc("kiosk", 0)
    r.expect_rc("plain", 0)

    disc = lines(r, "discovery.txt")
    for component, obj in [("select", "screen"), ("sensor", "selection"), ("sensor", "display_power"),
                           ("sensor", "room"), ("switch", "lights"), ("button", "garden")]:
        topic = f"homeassistant/{component}/{NODE}/{obj}/config"
        r.expect(topic in disc, f"no discovery document {topic}: {sorted(disc)}")
        if topic in disc:
            doc = json.loads(disc[topic])
            r.expect(doc.get("availability_topic") == f"{P}/availability", f"{topic}: {doc}")
    if f"homeassistant/select/{NODE}/screen/config" in disc:
        select = json.loads(disc[f"homeassistant/select/{NODE}/screen/config"])
        r.expect(select.get("options") == ["hall", "garden", "settings", "service"], f"select options: {select.get('options')}")
        r.expect(select.get("command_topic") == f"{P}/cmd/screen", f"select command: {select}")
    r.expect(f"homeassistant/switch/{NODE}/fan/config" not in disc, "a toggle without publish = true is a switch in Home Assistant")

    first = lines(r, "state-first.txt")
    expected = {f"{P}/availability": "online", f"{P}/state/screen": "hall", f"{P}/state/display_power": "on",
                f"{P}/state/value/room": "—", f"{P}/state/toggle/lights": "OFF"}
    for topic, payload in expected.items():
        r.expect(first.get(topic) == payload, f"retained {topic}: {first.get(topic)!r}, expected {payload!r}")

    r.expect_rc("render-value", 0)
    kiosk.expect_same_image(r, "value.png", "render-value.png")

    errors = r.text("errors.txt")
    for fragment in ["not UTF-8", "no screen named \\\"nowhere\\\"", "not JSON", "nothing", "no command on topic",
                     "\\\"fan\\\" is not published to the broker", "screen \\\"service\\\" is locked behind a PIN",
                     "\\\"reset\\\" is behind screen \\\"service\\\"'s PIN", "\\\"heater\\\" is behind screen \\\"service\\\"'s PIN"]:
        r.expect(fragment in errors, f"no error with {fragment!r}:\n{errors}")
    ran = [f for f in ("fan-switched", "reset-ran", "heater-switched") if f in r.text("mqtt-files.txt").split()]
    r.expect(not ran, f"refused commands ran anyway: {ran}")

    metrics = r.text("metrics-burst.prom")
    dropped = re.search(r'kiosk_mqtt_commands_total\{result="dropped"\} (\d+)', metrics)
    received = re.search(r'kiosk_mqtt_commands_total\{result="received"\} (\d+)', metrics)
    r.expect(dropped and int(dropped.group(1)) > 0, f"nothing dropped in the burst:\n{metrics}")
    if dropped and received:
        r.note(f"burst of 1,000 commands: {received.group(1)} taken (all commands so far), {dropped.group(1)} dropped")

    down = json.loads(r.text("status-down.json"))
    r.expect((down.get("mqtt") or {}).get("state") == "retrying", f"broker down: {down.get('mqtt')}")
    again = lines(r, "state-again.txt")
    r.expect(again.get(f"{P}/availability") == "online", f"after the restart: {again.get(f'{P}/availability')!r}")
    r.expect(again.get(f"{P}/state/selection") == "Garden camera", f"selection after the restart: {again.get(f'{P}/state/selection')!r}")
    r.expect(again.get(f"{P}/state/toggle/lights") == "ON", f"toggle after the restart: {again.get(f'{P}/state/toggle/lights')!r}")
    r.expect(len(lines(r, "discovery-again.txt")) == len(disc), "the discovery documents were not published again")

    err = r.text("kiosk.err")
    m = re.search(r"input-to-flip latency \(mqtt\) over (.*)", err)
    r.expect(m, "no MQTT-to-flip latency in the log")
    if m:
        r.note(f"MQTT message to flip: {m.group(1)}")
    rss = {}
    for name in ("rss-mqtt-start.txt", "rss-mqtt.txt", "rss-plain.txt"):
        m = re.search(r"VmRSS:\s*(\d+) kB", r.text(name))
        r.expect(m, f"{name}: {r.text(name)!r}")
        if m:
            rss[name] = int(m.group(1))
    if len(rss) == 3:
        r.note(f"RSS with [mqtt] {rss['rss-mqtt-start.txt']} kB connected and idle, {rss['rss-mqtt.txt']} kB after the commands; "
               f"without [mqtt] {rss['rss-plain.txt']} kB")
