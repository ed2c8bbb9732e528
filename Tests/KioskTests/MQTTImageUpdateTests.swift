@testable import DRMOutput
import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import KioskSystem
import Raster
import Testing
import TestSupport

/// Home Assistant's `update` entity against a real broker (Debian's mosquitto on loopback) and a
/// whole runtime on a folder shaped like a disk image device: the offered version is published
/// retained, an install while the panel is in use is refused on the error topic, and one a
/// minute later becomes the request root's kiosk-update.path takes.
@Suite(.serialized) struct MQTTImageUpdateTests {
    final class Clock: @unchecked Sendable {
        var now = MonotonicClock.now()
    }

    @Test func homeAssistantSeesTheOfferAndItsInstallReachesRoot() throws {
        let scratch = ScratchDirectory()
        let port = MQTTLinkTests.Broker.freePort()
        let broker = MQTTLinkTests.Broker(port: port, scratch: scratch)
        try broker.start()
        let device = ImageDiskTests.Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        try FileManager.default.createDirectory(atPath: device.dir + "/usb", withIntermediateDirectories: true)
        device.write("usb/SHA256SUMS", "0123  kiosk_2.0.root.erofs\n4567  kiosk_2.0.efi\n")
        let toml = """
            [mqtt]
            broker = "mqtt://127.0.0.1:\(port)"
            client_id = "hall"
            topic_prefix = "house/hall"

            [control]
            dbus = false
            update_source = "\(device.dir)/usb"

            [screens.main]
            style = "list"
            [[screens.main.sections]]
            [[screens.main.sections.items]]
            label = "Back"
            action = "back"

            """
        let check = ConfigReader(path: scratch.write("kiosk.toml", toml), displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
        let config = try #require(check.config, "\(check.report)")
        let clock = Clock()
        let app = try KioskApp(config: config, width: 320, height: 240, now: clock.now)
        let output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(statusFile: scratch.path + "/status.json", clock: { clock.now },
                                                           imageDisk: device.disk),
                                  startup: StartupTimeline())
        try runtime.start()
        func turn(until done: () -> Bool) throws -> Bool {
            let deadline = MonotonicClock.now() + Patience.seconds
            while !done() {
                if MonotonicClock.now() > deadline { return false }
                try runtime.runOnce(timeout: 0.05)
            }
            return true
        }
        #expect(try turn { runtime.mqttHealth?.state == .connected }, "\(String(describing: runtime.mqttHealth))")
        // The retained message as the broker has it once it has what `expected` says (the loop
        // turned between looks, so that the kiosk's passes publish).
        func retained(_ topic: String, _ expected: String) throws -> String {
            let deadline = MonotonicClock.now() + Patience.seconds
            var seen = ""
            while MonotonicClock.now() < deadline {
                for _ in 0..<4 { try runtime.runOnce(timeout: 0.05) }
                seen = try MQTTLinkTests.output(["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-v", "-W", "1", "-C", "1", "-t", topic],
                                                scratch: scratch)
                if seen.contains(expected) { break }
            }
            return seen
        }
        let state = try retained("house/hall/state/update", "\"latest_version\": \"2.0\"")
        #expect(state.contains("\"installed_version\": \"1.0\""), "\(state)")
        #expect(state.contains("\"latest_version\": \"2.0\""), "\(state)")
        let discovery = try retained("homeassistant/update/hall/image/config", "command_topic")
        #expect(discovery.contains("\"command_topic\": \"house/hall/cmd/update\""), "\(discovery)")

        // Just started: the panel counts as in use; the refusal goes to the error topic.
        let errors = try Self.subscriber(port: port, topic: "house/hall/error", scratch: scratch)
        defer { kill(errors.pid, SIGTERM) }
        _ = try MQTTLinkTests.output(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", "house/hall/cmd/update", "-m", "install"],
                                     scratch: scratch)
        _ = try turn { String(decoding: readBytes(errors.file), as: UTF8.self).contains("InUse") }
        #expect(String(decoding: readBytes(errors.file), as: UTF8.self).contains("InUse"))
        #expect(access(device.disk.updateRequest, F_OK) != 0, "nothing asked of root while in use")

        // A minute without input: the install becomes a request for the offered folder, restarting.
        clock.now += 61
        _ = try MQTTLinkTests.output(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", "house/hall/cmd/update", "-m", "install"],
                                     scratch: scratch)
        #expect(try turn { access(device.disk.updateRequest, F_OK) == 0 })
        #expect(String(decoding: readBytes(device.disk.updateRequest), as: UTF8.self) == "source=\(device.dir)/usb\nreboot=yes\n")
        // Home Assistant sees it under way.
        let busy = try retained("house/hall/state/update", "\"in_progress\": true")
        #expect(busy.contains("\"in_progress\": true"), "\(busy)")
    }

    /// A `mosquitto_sub` left running, writing what it gets to a file.
    static func subscriber(port: Int32, topic: String, scratch: ScratchDirectory) throws -> (pid: pid_t, file: String) {
        let file = scratch.path + "/sub-\(topic.replacingOccurrences(of: "/", with: "-")).txt"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let pid = try ProcessLauncher.start(Command(argv: ["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-v"]), output: fd)
        usleep(300_000)
        return (pid, file)
    }
}
