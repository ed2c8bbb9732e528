import Glibc
@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// `[mqtt]` and `publish`: the keys decode, and bad brokers, prefixes, files and credentials
/// are named at their key.
@Suite struct MQTTConfigTests {
    func check(_ mqtt: String?, item: String = "", scratch: ScratchDirectory) -> ConfigCheck {
        let text = """
            [screens.main]
            style = "arc"

            [[screens.main.items]]
            label = "Lights"
            action = "back"
            \(item)

            """ + (mqtt.map { "[mqtt]\n" + $0 + "\n" } ?? "")
        return ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check()
    }

    @Test func brokerAddresses() throws {
        func parse(_ s: String) -> MQTTBroker? { try? MQTTBroker.parse(s).get() }
        #expect(parse("mqtt://ha.local:1884") == MQTTBroker(host: "ha.local", port: 1884))
        #expect(parse("ha.local") == MQTTBroker(host: "ha.local", port: 1883))
        #expect(parse("mqtts://broker.example") == MQTTBroker(host: "broker.example", port: 8883, tls: true))
        #expect(parse("[::1]:1999") == MQTTBroker(host: "::1", port: 1999))
        #expect(parse("127.0.0.1:1883/") == MQTTBroker(host: "127.0.0.1", port: 1883))
        #expect(parse("mqtt://[fe80::1]") == MQTTBroker(host: "fe80::1", port: 1883))
        #expect(parse("http://ha.local") == nil)
        #expect(parse("ha.local:0") == nil)
        #expect(parse("ha.local:99999") == nil)
        #expect(parse("mqtt://") == nil)
        #expect(parse("ha local") == nil)
        #expect(MQTTBroker(host: "::1", port: 1883).description == "mqtt://[::1]:1883")
    }

    @Test func keysDecode() throws {
        let scratch = ScratchDirectory()
        let creds = scratch.write("creds.toml", "username = \"kiosk\"\npassword = \"s3cret\"\n", mode: 0o600)
        let ca = scratch.write("ca.pem", "not checked here\n")
        let c = try #require(check("""
            broker = "mqtts://ha.local"
            client_id = "hall-panel"
            topic_prefix = "house/hall"
            credentials_file = "creds.toml"
            ca_file = "ca.pem"
            keepalive = 20
            discovery_prefix = "ha"
            """, item: "id = \"lights\"\npublish = true", scratch: scratch).config)
        let m = try #require(c.mqtt)
        #expect(m.broker == MQTTBroker(host: "ha.local", port: 8883, tls: true))
        #expect(m.clientID == "hall-panel" && m.topicPrefix == "house/hall" && m.keepalive == 20 && m.discoveryPrefix == "ha")
        #expect(m.credentialsFile == creds && m.caFile == ca && m.usesTLS)
        #expect(c.screens[0].items[0].publish)
        #expect(try #require(check(nil, scratch: scratch).config).mqtt == nil)
    }

    @Test func badValuesNameTheirKey() {
        let scratch = ScratchDirectory()
        func problems(_ mqtt: String, item: String = "") -> [String] { check(mqtt, item: item, scratch: scratch).problems.map(\.description) }
        #expect(problems("client_id = \"x\"") == ["k.toml:8: mqtt.broker: missing: [mqtt] needs broker = \"mqtt://HOST:1883\" (or mqtts://HOST for TLS)"])
        #expect(problems("broker = \"http://x\"").first?.contains("mqtt.broker: \"http://x\": unknown scheme \"http\"") == true)
        #expect(problems("broker = \"x\"\nkeepalive = 2") == ["k.toml:10:13: mqtt.keepalive: 2 is out of range 5...65535"])
        #expect(problems("broker = \"x\"\ntopic_prefix = \"a/#\"") == ["k.toml:10:16: mqtt.topic_prefix: must not hold the wildcards + or #"])
        #expect(problems("broker = \"x\"\ntopic_prefix = \"/a\"") == ["k.toml:10:16: mqtt.topic_prefix: must not start or end with /"])
        #expect(problems("broker = \"x\"\nbrokr = \"y\"").first?.contains("unknown key (did you mean \"broker\"?)") == true)
        #expect(problems("broker = \"x\"\ncert_file = \"k.toml\"") == ["k.toml:10:13: mqtt.cert_file: cert_file and key_file go together: name both or neither"])
        #expect(problems("broker = \"x\"\nca_file = \"none.pem\"") == ["k.toml:10:11: mqtt.ca_file: \"\(scratch.path)/none.pem\" does not exist"])
        #expect(problems("broker = \"x\"", item: "publish = true")
            == ["k.toml:7:11: screens.main.items[0].publish: needs an id (id = \"lights\"): the Home Assistant button and its topic are named by it"])
    }

    @Test func publishWithoutMQTTWarns() throws {
        let scratch = ScratchDirectory()
        let c = check(nil, item: "id = \"lights\"\npublish = true", scratch: scratch)
        #expect(c.isValid)
        #expect(c.problems.map(\.description) == ["k.toml:8:11: screens.main.items[0].publish: warning: does nothing without an [mqtt] table"])
    }

    /// A password others can read: an error for everyone, a warning for the group; a file that is
    /// not TOML or lacks a username is refused.
    @Test func credentialsFile() {
        let scratch = ScratchDirectory()
        func problems(_ text: String, mode: mode_t) -> [String] {
            scratch.write("creds.toml", text, mode: mode)
            return check("broker = \"x\"\ncredentials_file = \"creds.toml\"", scratch: scratch).problems.map(\.description)
        }
        let good = "username = \"kiosk\"\npassword = \"pw\"\n"
        #expect(problems(good, mode: 0o600) == [])
        #expect(problems(good, mode: 0o644) == ["k.toml:10:20: mqtt.credentials_file: \"\(scratch.path)/creds.toml\" is readable by every user (mode 644): chmod 600 it, owned by the kiosk's user"])
        #expect(problems(good, mode: 0o640) == ["k.toml:10:20: mqtt.credentials_file: warning: \"\(scratch.path)/creds.toml\" is readable by its group (mode 640): chmod 600 it unless that group is the kiosk's alone"])
        #expect(problems("password = \"pw\"\n", mode: 0o600) == ["k.toml:10:20: mqtt.credentials_file: \"\(scratch.path)/creds.toml\" has no username = \"...\""])
        #expect(problems("kiosk:pw\n", mode: 0o600) == ["k.toml:10:20: mqtt.credentials_file: \"\(scratch.path)/creds.toml\" is not TOML at line 1, column 6: something TOML does not allow there (a string needs quotes) (write username = \"...\" and password = \"...\"; the file's text is not shown)"])
        #expect(problems(good + "token = \"t\"\n", mode: 0o600) == ["k.toml:10:20: mqtt.credentials_file: \"\(scratch.path)/creds.toml\" has a key other than username and password at line 3 (the file's text is not shown)"])
    }

    /// What a careless author writes in a credentials file: whatever the mistake, no problem
    /// quotes the file's text (the password would reach the banner, the status file and the log).
    @Test func credentialsNeverQuoted() {
        let scratch = ScratchDirectory()
        let secret = "hunter2xyz"
        for text in ["username = \"kiosk\"\npassword = \(secret)\n", "username = \"kiosk\"\npassword = \"\(secret)\n",
                     "username = kiosk\npassword = \"\(secret)\"\n", "\(secret) = \"x\"\nusername = \"kiosk\"\n",
                     "username = \"kiosk\"\n\(secret)\n", "username = \"kiosk\"\npassword = \"\(secret)\\q\"\n",
                     "username = \"kiosk\"\npassword = 12\(secret)\n", "username = \"kiosk\"\npassword = 2024-\(secret)\n",
                     "username = \"kiosk\"\npassword = [\"\(secret)\"\n", "username = \"kiosk\"\npassword = \"\(secret)\"\npassword = \"\(secret)\"\n"] {
            scratch.write("creds.toml", text, mode: 0o600)
            let problems = check("broker = \"x\"\ncredentials_file = \"creds.toml\"", scratch: scratch).problems.map(\.description)
            #expect(!problems.isEmpty, "\(text.debugDescription) was accepted")
            #expect(!problems.contains { $0.contains(secret) || $0.contains("kiosk\\n") }, "\(problems)")
            if case .failure(let e) = MQTTCredentials.parse(text) { #expect(!e.description.contains(secret)) }
        }
    }
}
