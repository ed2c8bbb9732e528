import Testing
@testable import Kiosk

/// Command topics and payloads decode into the control seam's requests; bad ones are refused
/// with a sentence, never a crash.
@Suite struct MQTTCommandTests {
    static let topics = MQTTTopics(clientID: "hall", prefix: "house/hall")

    func decode(_ topic: String, _ payload: String) -> Result<ControlRequest, MQTTCommandError> {
        MQTTCommand.decode(topic: "house/hall/" + topic, payload: Array(payload.utf8), topics: Self.topics)
    }

    @Test func commandsDecode() throws {
        #expect(try decode("cmd/screen", "settings\n").get() == .showScreen("settings"))
        #expect(try decode("cmd/home", "").get() == .goHome)
        #expect(try decode("cmd/value/room", "23.5").get() == .setValue(id: "room", text: "23.5"))
        #expect(try decode("cmd/toggle/lights", "ON").get() == .setToggle(id: "lights", on: true))
        #expect(try decode("cmd/toggle/lights", "off").get() == .setToggle(id: "lights", on: false))
        #expect(try decode("cmd/press/garden", "PRESS").get() == .press(id: "garden"))
        #expect(try decode("cmd/notify", "Doorbell").get() == .notify(text: "Doorbell", seconds: 5, level: .info))
        #expect(try decode("cmd/notify", #"{"text": "Leak in the cellar", "seconds": 30, "level": "error"}"#).get()
            == .notify(text: "Leak in the cellar", seconds: 30, level: .error))
    }

    @Test func badCommandsAreRefused() {
        func error(_ topic: String, _ payload: [UInt8]) -> String? {
            if case .failure(let e) = MQTTCommand.decode(topic: "house/hall/" + topic, payload: payload, topics: Self.topics) { return e.description }
            return nil
        }
        #expect(error("cmd/screen", [0xff, 0xfe, 0x41]) == "not UTF-8 text")
        #expect(error("cmd/notify", Array(#"{"text": 5"#.utf8))?.hasPrefix("not JSON") == true)
        #expect(error("cmd/notify", Array(#"{"text": 5}"#.utf8)) == #"JSON without "text": "...""#)
        #expect(error("cmd/notify", Array(#"{"text": "x", "level": "loud"}"#.utf8)) == #""level" must be one of "info", "warning", "error""#)
        #expect(error("cmd/notify", Array(#"{"text": "x", "seconds": "10"}"#.utf8)) == #""seconds" must be a number"#)
        #expect(error("cmd/toggle/lights", Array("maybe".utf8)) == #"expected ON or OFF, got "maybe""#)
        #expect(error("cmd/reboot", []) == #"no command on topic "house/hall/cmd/reboot" (screen, home, notify, value/ID, toggle/ID, press/ID, update)"#)
        #expect(error("cmd/value", Array("1".utf8))?.hasPrefix("no command on topic") == true)
        #expect(error("cmd/screen", [UInt8](repeating: 0x41, count: 20_000)) == "20000 bytes; at most 16384")
    }
}
