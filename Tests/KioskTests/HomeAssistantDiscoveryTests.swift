@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// Discovery documents are a function of the config: one per entity, JSON that parses, every one
/// naming the kiosk's availability topic and device, and topics the command parser uses.
@Suite struct HomeAssistantDiscoveryTests {
    static let config: KioskConfig = {
        let temp = ValueSource(origin: .file("/sys/class/thermal/thermal_zone0/temp"), scale: 0.001, unit: "°C")
        let lamp = ToggleConfig(state: .file("/run/lamp"), on: Command(argv: ["/bin/true"]), off: Command(argv: ["/bin/true"]))
        let main = ScreenConfig(name: "main", title: "Hall", layout: .arc(ArcStyle()), sections: [MenuSection(items: [
            MenuItem(label: "CPU {value}", action: .back, id: "cpu", value: temp),
            MenuItem(label: "Lamp", action: .toggle, id: "lamp", toggle: lamp, publish: true),
            MenuItem(label: "Heater", action: .toggle, id: "heater", toggle: lamp),
            MenuItem(label: "Doorbell camera", action: .screen("camera"), id: "camera", publish: true),
            MenuItem(label: "Setpoint {value}", action: .back, id: "setpoint", value: ValueSource(origin: .api), publish: true),
            MenuItem(label: "No id", action: .back),
        ])])
        let camera = ScreenConfig(name: "camera", layout: .arc(ArcStyle()), sections: [MenuSection(items: [MenuItem(label: "Back", action: .back)])])
        return KioskConfig(home: "main", screens: [main, camera], mqtt: MQTTConfig(broker: MQTTBroker(host: "127.0.0.1")))
    }()

    static let topics = MQTTTopics(clientID: "kiosk-0123456789ab")

    func documents() -> [String: StatusValue] {
        var out: [String: StatusValue] = [:]
        for d in HomeAssistantDiscovery.documents(for: Self.config, topics: Self.topics, discoveryPrefix: "homeassistant", version: "0.1.0") {
            out[d.topic] = try? StatusJSONReader.parse(d.payload)
        }
        return out
    }

    @Test func oneDocumentPerEntity() throws {
        let docs = documents()
        let node = "kiosk-0123456789ab"
        #expect(Set(docs.keys) == [
            "homeassistant/select/\(node)/screen/config",
            "homeassistant/sensor/\(node)/selection/config",
            "homeassistant/sensor/\(node)/display_power/config",
            "homeassistant/sensor/\(node)/cpu/config",
            "homeassistant/switch/\(node)/lamp/config",
            "homeassistant/button/\(node)/camera/config",
            "homeassistant/sensor/\(node)/setpoint/config",
        ], "no switch for a toggle that is not published; no button for a published item that only goes back")
        for (topic, doc) in docs {
            #expect(doc["availability_topic"]?.stringValue == "kiosk/\(node)/availability", "\(topic)")
            #expect(doc["device"]?["identifiers"] == .array([.string(node)]), "\(topic)")
            #expect(doc["unique_id"]?.stringValue?.hasPrefix(node + "_") == true, "\(topic)")
        }
    }

    @Test func entitiesPointAtTheKiosksTopics() throws {
        let docs = documents()
        func doc(_ component: String, _ object: String) -> StatusValue? {
            docs["homeassistant/\(component)/kiosk-0123456789ab/\(object)/config"]
        }
        let select = try #require(doc("select", "screen"))
        #expect(select["options"] == .array([.string("main"), .string("camera")]))
        #expect(select["command_topic"]?.stringValue == Self.topics.showScreen)
        #expect(select["state_topic"]?.stringValue == Self.topics.screen)
        let cpu = try #require(doc("sensor", "cpu"))
        #expect(cpu["name"]?.stringValue == "CPU")
        #expect(cpu["unit_of_measurement"] == nil)
        #expect(cpu["state_topic"]?.stringValue == "kiosk/kiosk-0123456789ab/state/value/cpu")
        let lamp = try #require(doc("switch", "lamp"))
        #expect(lamp["command_topic"]?.stringValue == "kiosk/kiosk-0123456789ab/cmd/toggle/lamp")
        #expect(lamp["state_topic"]?.stringValue == "kiosk/kiosk-0123456789ab/state/toggle/lamp")
        let button = try #require(doc("button", "camera"))
        #expect(button["command_topic"]?.stringValue == "kiosk/kiosk-0123456789ab/cmd/press/camera")
        #expect(button["name"]?.stringValue == "Doorbell camera")
    }

    @Test func droppedEntitiesAreRemoved() {
        var smaller = Self.config
        smaller.screens[0].sections[0].items.removeLast(3)
        let before = HomeAssistantDiscovery.documents(for: Self.config, topics: Self.topics, discoveryPrefix: "homeassistant", version: "1")
        let after = HomeAssistantDiscovery.documents(for: smaller, topics: Self.topics, discoveryPrefix: "homeassistant", version: "1")
        #expect(HomeAssistantDiscovery.removals(from: before, to: after) == [
            DiscoveryDocument(topic: "homeassistant/button/kiosk-0123456789ab/camera/config", payload: ""),
            DiscoveryDocument(topic: "homeassistant/sensor/kiosk-0123456789ab/setpoint/config", payload: ""),
        ])
    }

    @Test func clientIDs() {
        #expect(MQTTTopics.defaultClientID(machineID: "0123456789ABCDEF0123456789abcdef", hostname: "h") == "kiosk-0123456789ab")
        #expect(MQTTTopics.defaultClientID(machineID: nil, hostname: "hall panel.local") == "kiosk-hall_panel_local")
        #expect(MQTTTopics.defaultClientID(machineID: "", hostname: nil) == "kiosk")
        #expect(MQTTTopics(clientID: "a b", prefix: nil).prefix == "kiosk/a_b")
        #expect(MQTTTopics(clientID: "a", prefix: "house/hall").availability == "house/hall/availability")
    }
}

/// The retry schedule and the command rate limit, time moved by hand.
@Suite struct MQTTTimingTests {
    @Test func backoffDoublesToAMinuteAndResets() {
        var b = MQTTBackoff()
        var waits: [Double] = []
        for _ in 0..<9 { waits.append(b.failed(at: 100) - 100) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        b.connected()
        #expect(b.failed(at: 0) == 1)
    }

    @Test func rateLimitAdmitsABurstThenTheRate() {
        var limit = MQTTRateLimit(perSecond: 100, burst: 100)
        // 1,000 messages in one second: the burst, then 100 more as tokens come back.
        var admitted = 0
        for i in 0..<1000 where limit.admit(at: Double(i) / 1000) { admitted += 1 }
        #expect((195...200).contains(admitted), "\(admitted)")
        // After a quiet second the whole burst is back.
        var again = 0
        for _ in 0..<150 where limit.admit(at: 3) { again += 1 }
        #expect(again == 100)
    }
}
