import KioskConfiguration
import KioskSystem

/// What the kiosk publishes retained about itself, topic by topic: the screen, the selection,
/// the panel's power, each value's text and each toggle's state. Built at the end of a pass;
/// only what differs from the last one is sent.
public struct MQTTPublishedState: Equatable, Sendable {
    public var screen: String
    public var selection: String?
    public var displayPower: DisplayPowerState?
    /// The text each value's label shows ("21.5 °C"), by id.
    public var values: [String: String]
    /// Each toggle's known state, by id (absent while unknown).
    public var toggles: [String: Bool]
    /// The `update` entity's JSON; nil: not published (no image, or no update offered).
    public var update: String?

    public init(screen: String, selection: String?, displayPower: DisplayPowerState?, values: [String: String] = [:], toggles: [String: Bool] = [:]) {
        self.screen = screen
        self.selection = selection
        self.displayPower = displayPower
        self.values = values
        self.toggles = toggles
    }

    /// Every topic and payload of this state.
    public func messages(_ topics: MQTTTopics) -> [String: String] {
        var out = [topics.screen: screen, topics.selection: selection ?? "", topics.displayPower: displayPower?.rawValue ?? "on"]
        for (id, text) in values { out[topics.value(id)] = text }
        for (id, on) in toggles { out[topics.toggle(id)] = on ? "ON" : "OFF" }
        if let update { out[topics.update] = update }
        return out
    }
}

/// The runtime's MQTT: starts, replaces or stops the `MQTTLink` as `[mqtt]` comes and goes with
/// the config, publishes Home Assistant discovery for each config applied (removing the
/// entities it dropped) and the state when it changes, and hands commands to `commands`.
final class MQTTService {
    private let loop: EventLoop
    private var link: MQTTLink?
    private var settings: MQTTLinkSettings?
    private var discoveryGeneration: Int?
    private var discovery: [DiscoveryDocument] = []
    private var published: [String: String] = [:]
    private let names: (machineID: String?, hostname: String?)
    /// Commands from the broker, on the loop's thread.
    var commands: ((MQTTMessage, MQTTTopics) -> Void)?
    /// The connection's state changed: the status file says so at the next pass.
    var healthChanged: (() -> Void)?

    init(loop: EventLoop, names: (machineID: String?, hostname: String?) = MQTTTopics.machineNames()) {
        self.loop = loop
        self.names = names
    }

    var health: MQTTHealth? { link?.health }
    var topics: MQTTTopics? { settings?.topics }

    /// At the end of every pass: the config in force (its generation tells a new one) and the
    /// state to publish, built only when connected to a config with `[mqtt]`.
    func update(config: KioskConfig, generation: Int, state: () -> MQTTPublishedState) {
        guard let mqtt = config.mqtt else {
            stop()
            return
        }
        let wanted = MQTTLinkSettings(config: mqtt, topics: MQTTTopics(mqtt, machineID: names.machineID, hostname: names.hostname))
        if wanted != settings { start(wanted) }
        guard let link, let topics = settings?.topics else { return }
        if discoveryGeneration != generation {
            discoveryGeneration = generation
            let documents = mqtt.discovery
                ? HomeAssistantDiscovery.documents(for: config, topics: topics, discoveryPrefix: mqtt.discoveryPrefix, version: KioskVersion.string)
                : []
            for d in HomeAssistantDiscovery.removals(from: discovery, to: documents) + documents { link.publish(d.topic, d.payload) }
            discovery = documents
        }
        for (topic, payload) in state().messages(topics) where published[topic] != payload {
            published[topic] = payload
            link.publish(topic, payload)
        }
    }

    /// Not retained: why a command was refused, for whoever sent it.
    func publishError(_ json: String) {
        guard let link, let topics else { return }
        link.publish(topics.error, json, retain: false)
    }

    /// Not retained: a press asks for an `api = true` toggle to be switched.
    func publishToggleRequest(_ json: String) {
        guard let link, let topics else { return }
        link.publish(topics.toggleRequested, json, retain: false)
    }

    /// Not retained: an item activated on the kiosk.
    func publishEvent(_ json: String) {
        guard let link, let topics else { return }
        link.publish(topics.activated, json, retain: false)
    }

    private func start(_ wanted: MQTTLinkSettings) {
        stop()
        do {
            let made = try MQTTLink(settings: wanted)
            try made.attach(to: loop, deliver: { [unowned self] messages in
                guard let topics = self.settings?.topics else { return }
                for m in messages { self.commands?(m, topics) }
            }, healthChanged: { [unowned self] in self.healthChanged?() })
            link = made
            settings = wanted
            Log.info("mqtt: connecting to \(wanted.config.broker) as \(wanted.topics.clientID), topics under \(wanted.topics.prefix)")
        } catch {
            Log.error("mqtt: cannot start: \(error)")
        }
    }

    private func stop() {
        guard let old = link else { return }
        loop.unwatch(old.descriptor)
        link = nil
        settings = nil
        discoveryGeneration = nil
        discovery = []
        published = [:]
    }
}
