import KioskConfiguration

/// One retained message that makes Home Assistant create (or, empty, remove) an entity.
public struct DiscoveryDocument: Equatable, Sendable {
    public var topic: String
    /// JSON; empty removes the entity.
    public var payload: String
}

/// Home Assistant MQTT discovery (a pure function of the config and the kiosk's topics): one
/// device with a `select` for the screen, sensors for the selection and the display's power, a
/// sensor per live value, and for each item with `publish = true` a `switch` (a toggle) or a
/// `button` (an item whose action does something: not `back`): the broker acts only on what
/// the config opted in.
/// Every entity goes unavailable with the kiosk (`availability`, the will).
public enum HomeAssistantDiscovery {
    public static func documents(for config: KioskConfig, topics: MQTTTopics, discoveryPrefix: String,
                                 version: String) -> [DiscoveryDocument] {
        let node = topics.node
        let device: StatusValue = .object([
            ("identifiers", .array([.string(node)])),
            ("name", .string("Kiosk \(topics.clientID)")),
            ("manufacturer", .string("Kiosk")),
            ("model", .string("Kiosk menu")),
            ("sw_version", .string(version)),
        ])
        func document(_ component: String, _ object: String, _ name: String, _ fields: [(String, StatusValue)]) -> DiscoveryDocument {
            let common: [(String, StatusValue)] = [
                ("name", .string(name)),
                ("unique_id", .string("\(node)_\(object)")),
                ("object_id", .string("\(node)_\(object)")),
                ("availability_topic", .string(topics.availability)),
                ("device", device),
            ]
            return DiscoveryDocument(topic: "\(discoveryPrefix)/\(component)/\(node)/\(object)/config",
                                     payload: StatusValue.object(common + fields).json)
        }
        var out: [DiscoveryDocument] = [
            document("select", "screen", "Screen", [
                ("state_topic", .string(topics.screen)),
                ("command_topic", .string(topics.showScreen)),
                ("options", .array(config.screens.map { .string($0.name) })),
                ("icon", .string("mdi:monitor")),
            ]),
            document("sensor", "selection", "Selection", [("state_topic", .string(topics.selection)), ("icon", .string("mdi:cursor-default"))]),
            document("sensor", "display_power", "Display power", [
                ("state_topic", .string(topics.displayPower)),
                ("device_class", .string("enum")),
                ("options", .array(["on", "dimmed", "off"].map { .string($0) })),
                ("icon", .string("mdi:monitor-shimmer")),
            ]),
        ]
        // A disk image whose config offers updates: Home Assistant shows the versions and installs.
        if config.control.updateSource != nil {
            out.append(document("update", "image", "Kiosk image", [
                ("state_topic", .string(topics.update)),
                ("command_topic", .string(topics.installUpdate)),
                ("payload_install", .string("install")),
                ("device_class", .string("firmware")),
            ]))
        }
        for screen in config.screens {
            if let id = screen.id, screen.value != nil {
                out.append(valueSensor(id: id, name: screen.title ?? screen.name, topics: topics, document))
            }
            for item in screen.items {
                guard let id = item.id else { continue }
                let name = entityName(item.label)
                if item.value != nil { out.append(valueSensor(id: id, name: name, topics: topics, document)) }
                guard item.publish else { continue }
                if item.toggle != nil {
                    out.append(document("switch", id, name, [
                        ("state_topic", .string(topics.toggle(id))),
                        ("command_topic", .string(topics.setToggle(id))),
                        ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
                    ]))
                } else if item.action != .back {
                    out.append(document("button", id, name, [("command_topic", .string(topics.press(id))), ("payload_press", .string("PRESS"))]))
                }
            }
        }
        return out
    }

    private static func valueSensor(id: String, name: String, topics: MQTTTopics,
                                    _ document: (String, String, String, [(String, StatusValue)]) -> DiscoveryDocument) -> DiscoveryDocument {
        // The state is the text the label shows, unit and all ("21.5 °C"): a text sensor, since a
        // value's format and unit are the author's and need not be a number.
        document("sensor", id, name, [("state_topic", .string(topics.value(id))), ("icon", .string("mdi:gauge"))])
    }

    /// A label without its `{value}` placeholder ("Nozzle {value}" names the sensor "Nozzle").
    static func entityName(_ label: String) -> String {
        let parts = label.split(separator: LiveLabel.placeholder, omittingEmptySubsequences: false).joined(separator: " ")
        let words = parts.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? label : words.joined(separator: " ")
    }

    /// The documents of `previous` whose topic `current` no longer has, emptied: published
    /// retained, they remove the entities of a screen or item the new config dropped.
    public static func removals(from previous: [DiscoveryDocument], to current: [DiscoveryDocument]) -> [DiscoveryDocument] {
        let kept = Set(current.map(\.topic))
        return previous.filter { !kept.contains($0.topic) }.map { DiscoveryDocument(topic: $0.topic, payload: "") }
    }
}
