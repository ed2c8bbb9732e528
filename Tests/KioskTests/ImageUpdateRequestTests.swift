import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import KioskSystem
import Testing
import TestSupport

/// Asking for a disk image update: what the kiosk refuses before it asks root (not an image, a
/// path that is not one folder's, the panel in use, an update already running, a trial boot),
/// the request file root's kiosk-update.path takes, the steps root writes read back as the
/// status, and the whole way over D-Bus (`Update`, `GetImage`, the `updateChanged` event).
@Suite(.serialized) struct ImageUpdateRequestTests {
    typealias Device = ImageDiskTests.Device

    static func requests(_ d: Device) -> ImageUpdateRequests {
        let disk = d.disk
        return ImageUpdateRequests(disk: disk) { disk.read() }
    }

    func requestText(_ d: Device) -> String? {
        try? String(contentsOfFile: d.disk.updateRequest, encoding: .utf8)
    }

    @Test func aRequestIsAFileRootTakesAndItsStepsAreRead() throws {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let r = Self.requests(d)
        var asked = 0
        r.requested = { asked += 1 }
        try r.request(source: "/media/usb/kiosk 2.0", reboot: true, force: false, idleFor: 61)
        #expect(requestText(d) == "source=/media/usb/kiosk 2.0\nreboot=yes\n")
        #expect(asked == 1)
        #expect(d.disk.read()?.update == .init(state: .requested))
        // A second one while the first waits for root.
        #expect(throws: ControlError.updateRunning("an update is already requested")) {
            try r.request(source: "/media/usb/x", reboot: false, force: true, idleFor: 1000)
        }
        // Root took it (the file gone) and writes its steps; a message with '=' and quotes stays whole.
        unlink(d.disk.updateRequest)
        d.write("state", "state=installing\nversion=2.0\nsource=/media/usb/kiosk 2.0\nmessage=installing 2.0 (running \"1.0\", a=b)\n")
        #expect(d.disk.read()?.update == .init(state: .installing, version: "2.0", source: "/media/usb/kiosk 2.0",
                                              message: "installing 2.0 (running \"1.0\", a=b)"))
        #expect(throws: ControlError.updateRunning("an update is already installing (2.0)")) {
            try r.request(source: "/media/usb/x", reboot: false, force: true, idleFor: 1000)
        }
        d.write("state", "state=refused\nversion=\nmessage=kiosk-update: /media/usb/x has no SHA256SUMS\n")
        #expect(d.disk.read()?.update == .init(state: .refused, message: "kiosk-update: /media/usb/x has no SHA256SUMS"))
        try r.request(source: "/media/usb/x", reboot: false, force: false, idleFor: 100)
        #expect(requestText(d) == "source=/media/usb/x\nreboot=no\n")
        // A step this kiosk does not know is no update at all (an older status, a stranger's file).
        unlink(d.disk.updateRequest)
        d.write("state", "state=exploded\n")
        #expect(d.disk.read()?.update == nil)
    }

    @Test func whatIsRefusedBeforeRootIsAsked() throws {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let r = Self.requests(d)
        #expect(throws: ControlError.inUse("the panel was used (or the kiosk started) 12 s ago; an update waits for 60 s without input")) {
            try r.request(source: "/media/usb", reboot: false, force: false, idleFor: 12.5)
        }
        r.displayHandedOver = { true }
        #expect(throws: ControlError.inUse("a program the menu started has the display")) {
            try r.request(source: "/media/usb", reboot: false, force: false, idleFor: 1000)
        }
        for bad in ["media/usb", "", "/media/usb\nreboot=yes", "/media/\u{7f}", "/" + String(repeating: "x", count: 2000)] {
            #expect(throws: ControlError.self) { try r.request(source: bad, reboot: false, force: true, idleFor: 1000) }
        }
        #expect(requestText(d) == nil, "nothing was asked")
        // Forced: in use or not.
        try r.request(source: "/media/usb", reboot: false, force: true, idleFor: 0)
        #expect(requestText(d) != nil)

        // A trial boot: the version before would be lost as the way back.
        let trial = Device.running("2.0", partition: 3, images: ["kiosk_1.0.efi", "kiosk_2.0+2-1.efi"])
        #expect(throws: ControlError.updateRunning("this boot of 2.0 is still on trial: update once it is called good")) {
            try Self.requests(trial).request(source: "/media/usb", reboot: false, force: true, idleFor: 1000)
        }
        // Not an image.
        let plain = Device()
        plain.write("os-release", "ID=debian\n")
        #expect(throws: ControlError.notAnImage) {
            try Self.requests(plain).request(source: "/media/usb", reboot: false, force: true, idleFor: 1000)
        }
        // A request file that cannot be written (its folder gone) is an error the caller reads.
        let gone = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        var disk = gone.disk
        disk.updateRequest = gone.dir + "/missing/update-request"
        let unwritable = ImageUpdateRequests(disk: disk) { disk.read() }
        #expect(throws: ControlError.self) { try unwritable.request(source: "/media/usb", reboot: false, force: true, idleFor: 1000) }
    }

    @Test func theControlDoorRefusesUpdatesWithoutAnImage() throws {
        let h = try ControlTests.Harness()
        #expect(h.error(.update(source: "/media/usb", reboot: false, force: true)) == .notAnImage)
        #expect(h.error(.image) == .notAnImage)
        #expect(h.error(.update(source: "/" + String(repeating: "x", count: 5000), reboot: false, force: true))?.name == "BadArgument")
    }

    @Test func overDBusTheRequestAndItsStepsArrive() throws {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let disk = d.disk
        let daemon = try DBusControlTests.Daemon()
        let k = try DBusControlTests.Running(bus: daemon.address, imageDisk: disk)
        var events: [ControlEvent] = []
        _ = k.runtime.control.subscribe { events.append($0) }
        try k.turn { k.runtime.controlAPI == .ready }
        let results = try DBusControlTests.send([.update(source: "/media/usb", reboot: false, force: false),
                                                 .update(source: "/media/usb", reboot: true, force: true), .image],
                                                over: daemon.address, to: k)
        try #require(results.count == 3)
        // Just started: the panel counts as in use.
        guard case .failure(.refused("InUse", let why)) = results[0] else {
            Issue.record("not refused as in use: \(results[0])")
            return
        }
        #expect(why.hasPrefix("the panel is in use (the panel was used (or the kiosk started) "))
        #expect(results[1] == .success(.done))
        #expect(requestText(d) == "source=/media/usb\nreboot=yes\n")
        guard case .success(.image(let image)) = results[2] else {
            Issue.record("no image: \(results[2])")
            return
        }
        #expect(image.version == "1.0" && image.slot == "a" && !image.trial && image.update?.state == .requested)
        // Root takes the request and installs: the kiosk follows within its update interval.
        try k.turn { events.contains(.updateChanged(.init(state: .requested))) }
        unlink(d.disk.updateRequest)
        // A step with its progress, read over the bus too.
        d.write("state", "state=installing\nversion=2.0\nsource=/media/usb\nmessage=installing 2.0: root 42 %\nprogress=42\n")
        let installing = ImageStatus.Update(state: .installing, version: "2.0", source: "/media/usb", message: "installing 2.0: root 42 %", progress: 42)
        try k.turn { events.contains(.updateChanged(installing)) }
        let read = try DBusControlTests.send([.image], over: daemon.address, to: k)
        guard case .success(.image(let during))? = read.first else {
            Issue.record("no image: \(read)")
            return
        }
        #expect(during.update == ImageStatus.Update(state: .installing, version: "2.0", message: "installing 2.0: root 42 %", progress: 42))
        d.write("state", "state=installed\nversion=2.0\nsource=/media/usb\nmessage=installed 2.0: restarting into it\n")
        let installed = ImageStatus.Update(state: .installed, version: "2.0", source: "/media/usb", message: "installed 2.0: restarting into it")
        try k.turn { events.contains(.updateChanged(installed)) }
        #expect(events.contains(.updateChanged(installed)))
        let status = try String(contentsOfFile: k.scratch.path + "/status.json", encoding: .utf8)
        #expect(status.contains("\"update\": {\"state\": \"installed\", \"version\": \"2.0\""), "\(status)")
    }
}

/// Updates offered to Home Assistant: `[control] update_source`'s newest version, the `update`
/// entity (discovery, state, install) and what the broker may and may not ask.
@Suite struct ImageUpdateOfferTests {
    typealias Device = ImageDiskTests.Device

    @Test func theOfferedVersionIsTheNewestKernelImageListed() {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        #expect(d.disk.read(offer: d.dir + "/usb")?.offered == nil, "no folder: nothing offered")
        try? FileManager.default.createDirectory(atPath: d.dir + "/usb", withIntermediateDirectories: true)
        d.write("usb/SHA256SUMS", """
            0123  kiosk_2.0.root.erofs
            4567  kiosk_2.0.efi
            89ab *kiosk_10.0.efi
            cdef  kiosk_11.0+3.efi
            garbage line
            0000  ../kiosk_99.efi

            """)
        let status = d.disk.read(offer: d.dir + "/usb")
        #expect(status?.offered == "10.0")
        let ha = try? StatusJSONReader.parse(status!.homeAssistantUpdate)
        #expect(ha?["installed_version"]?.stringValue == "1.0" && ha?["latest_version"]?.stringValue == "10.0")
        #expect(ha?["in_progress"]?.boolValue == false && ha?["title"]?.stringValue == "Kiosk image")
        // Nothing newer offered: Home Assistant says up to date.
        d.write("usb/SHA256SUMS", "4567  kiosk_0.9.efi\n")
        let older = d.disk.read(offer: d.dir + "/usb")!
        #expect((try? StatusJSONReader.parse(older.homeAssistantUpdate))?["latest_version"]?.stringValue == "1.0")
        // An update under way shows as in progress, its step as the summary.
        d.write("state", "state=installing\nversion=10.0\nmessage=installing 10.0 (running 1.0)\n")
        let busy = try? StatusJSONReader.parse(d.disk.read(offer: d.dir + "/usb")!.homeAssistantUpdate)
        #expect(busy?["in_progress"]?.boolValue == true)
        #expect(busy?["release_summary"]?.stringValue == "installing: installing 10.0 (running 1.0)")
    }

    @Test func theBrokerInstallsOnlyWhatTheConfigOffers() throws {
        let topics = MQTTTopics(clientID: "hall", prefix: "house/hall")
        let decode = { (payload: String) in MQTTCommand.decode(topic: "house/hall/cmd/update", payload: Array(payload.utf8), topics: topics) }
        #expect(try decode("install\n").get() == .update(source: nil, reboot: nil, force: false))
        #expect(try decode("INSTALL").get() == .update(source: nil, reboot: nil, force: false))
        guard case .failure(.badPayload) = decode("/tmp/evil") else {
            Issue.record("a folder from the broker was taken")
            return
        }
        // The gate: nothing offered, a folder named, or forced: refused for the broker; the bus may.
        var config = HomeAssistantDiscoveryTests.config
        let without = ActionGate(config: config, isLocked: { _ in false })
        #expect(throws: ControlError.notOffered) { try without.check(.update(source: nil, reboot: nil, force: false), from: .broker) }
        config.control.updateSource = "/media/usb/kiosk-update"
        let offered = ActionGate(config: config, isLocked: { _ in false })
        try offered.check(.update(source: nil, reboot: nil, force: false), from: .broker)
        #expect(throws: ControlError.notOffered) { try offered.check(.update(source: "/tmp/x", reboot: nil, force: false), from: .broker) }
        #expect(throws: ControlError.notOffered) { try offered.check(.update(source: nil, reboot: nil, force: true), from: .broker) }
        try offered.check(.update(source: "/tmp/x", reboot: true, force: true), from: .bus)
    }

    @Test func homeAssistantGetsAnUpdateEntityOnlyWhenUpdatesAreOffered() throws {
        let topics = HomeAssistantDiscoveryTests.topics
        var config = HomeAssistantDiscoveryTests.config
        let topic = "homeassistant/update/\(topics.node)/image/config"
        #expect(!HomeAssistantDiscovery.documents(for: config, topics: topics, discoveryPrefix: "homeassistant", version: "1").contains { $0.topic == topic })
        config.control.updateSource = "/media/usb/kiosk-update"
        let doc = try #require(HomeAssistantDiscovery.documents(for: config, topics: topics, discoveryPrefix: "homeassistant", version: "1")
            .first { $0.topic == topic })
        let parsed = try StatusJSONReader.parse(doc.payload)
        #expect(parsed["state_topic"]?.stringValue == topics.update)
        #expect(parsed["command_topic"]?.stringValue == topics.installUpdate)
        #expect(parsed["payload_install"]?.stringValue == "install")
        // The state is published with the rest, only when offered.
        var state = MQTTPublishedState(screen: "main", selection: nil, displayPower: .on)
        #expect(state.messages(topics)[topics.update] == nil)
        state.update = "{}"
        #expect(state.messages(topics)[topics.update] == "{}")
    }

    @Test func theConfigTakesAFolderOrSaysWhy() throws {
        let scratch = ScratchDirectory()
        func check(_ control: String) -> ConfigCheck {
            ConfigReader(path: scratch.write("kiosk.toml", """
                [control]
                \(control)

                [screens.main]
                style = "list"
                [[screens.main.sections]]
                [[screens.main.sections.items]]
                label = "Back"
                action = "back"

                """), displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
        }
        let good = check("update_source = \"/media/usb/kiosk-update\"\nupdate_reboot = false")
        #expect(good.config?.control.updateSource == "/media/usb/kiosk-update" && good.config?.control.updateReboot == false)
        #expect(check("").config?.control.updateSource == nil && check("").config?.control.updateReboot == true)
        let relative = check("update_source = \"usb/update\"")
        #expect(relative.config == nil)
        #expect(relative.report.contains("update_source: expected a folder's absolute path"), "\(relative.report)")
        // A web server's folder; and the same rule as every request (`UpdateSource`).
        #expect(check("update_source = \"https://updates.example.com/kiosk\"").config?.control.updateSource == "https://updates.example.com/kiosk")
        let ftp = check("update_source = \"ftp://updates.example.com/kiosk\"")
        #expect(ftp.config == nil && ftp.report.contains("or an http(s):// URL"), "\(ftp.report)")
        #expect(check("update_source = \"https://a b\"").report.contains("a URL has no spaces"))
    }
}

/// Updates from a web server: the sources taken (`UpdateSource`, one rule for the config and every
/// request), the progress root writes, and the offer a URL makes, which root checks for the kiosk
/// (it fetches nothing itself) when asked (`askWhatIsOffered`, hourly by the watch).
@Suite struct ImageUpdateFromAServerTests {
    typealias Device = ImageDiskTests.Device

    @Test func sourcesAreAFoldersPathOrAWebFoldersURL() {
        for good in ["/media/usb/kiosk update", "/", "https://updates.example.com/kiosk", "http://10.0.2.2:8000/update/",
                     "https://[fe80::1]/x?y=%20"] {
            #expect(UpdateSource.problem(good) == nil, "\(good)")
        }
        #expect(UpdateSource.isURL("https://h") && UpdateSource.isURL("http://h") && !UpdateSource.isURL("/https://h"))
        let bad = ["", "media/usb", "https://", "http://", "ftp://host/x", "file:///media/usb", "https://a b", "/media/usb\nreboot=yes",
                   "/media/\t", "/media/\u{2028}x", "https://x/\u{7f}", "/" + String(repeating: "x", count: 1024)]
        for source in bad { #expect(UpdateSource.problem(source) != nil, "\(source.debugDescription)") }
    }

    @Test func aURLIsAskedForAndItsDownloadFollowedWithProgress() throws {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let r = ImageUpdateRequestTests.requests(d)
        try r.request(source: "https://updates.example.com/kiosk", reboot: false, force: true, idleFor: 0)
        #expect((try? String(contentsOfFile: d.disk.updateRequest, encoding: .utf8)) == "source=https://updates.example.com/kiosk\nreboot=no\n")
        #expect(throws: ControlError.self) { try r.request(source: "https://a b", reboot: false, force: true, idleFor: 0) }
        unlink(d.disk.updateRequest)
        d.write("state", "state=downloading\nversion=\nsource=https://updates.example.com/kiosk\nmessage=downloading kiosk_2.0.root.erofs: 183 of 427 MB\nprogress=42\n")
        let update = try #require(d.disk.read()?.update)
        #expect(update == .init(state: .downloading, source: "https://updates.example.com/kiosk",
                                message: "downloading kiosk_2.0.root.erofs: 183 of 427 MB", progress: 42))
        #expect(update.isRunning)
        #expect(throws: ControlError.updateRunning("an update is already downloading")) {
            try r.request(source: "/media/usb", reboot: false, force: true, idleFor: 1000)
        }
        // Home Assistant's entity shows the step's percentage while it runs, none after.
        let ha = try StatusJSONReader.parse(d.disk.read()!.homeAssistantUpdate)
        #expect(ha["in_progress"]?.boolValue == true && ha["update_percentage"]?.intValue == 42)
        // What root writes is bounded: out of range is clamped, not a number is none.
        d.write("state", "state=installing\nversion=2.0\nprogress=250\n")
        #expect(d.disk.read()?.update?.progress == 100)
        d.write("state", "state=installing\nversion=2.0\nprogress=-3\n")
        #expect(d.disk.read()?.update?.progress == 0)
        d.write("state", "state=installing\nversion=2.0\nprogress=12abc\n")
        #expect(d.disk.read()?.update?.progress == nil)
        d.write("state", "state=installed\nversion=2.0\nprogress=\n")
        let done = try StatusJSONReader.parse(d.disk.read()!.homeAssistantUpdate)
        #expect(done["in_progress"]?.boolValue == false && done["update_percentage"] == .null)
        // The status file carries it, and reads it back.
        var status = d.disk.read()!
        status.update?.progress = 7
        status.update?.state = .installing
        var doc = StatusReportTests.status()
        doc.image = status
        let folder = StatusReportTests.Folder()
        let report = StatusReport(path: folder.file("s.json", doc.json), isRunning: StatusReportTests.alive)
        #expect(report.status == doc && report.status?.image?.update?.progress == 7)
        // And the metrics, while the step runs.
        var metrics = KioskMetrics(startTime: 0, configGeneration: 1, configValid: true, screen: "main", displayConnected: true)
        metrics.image = status
        #expect(metrics.exposition.contains("kiosk_image_update_progress{state=\"installing\"} 7\n"), "\(metrics.exposition)")
    }

    @Test func aWebServersOfferIsRootsCheckedAnswerForThatURL() throws {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let url = "https://updates.example.com/kiosk"
        #expect(d.disk.read(offer: url)?.offered == nil, "not checked yet")
        d.write("offered", "source=\(url)\nversion=2.0\nmessage=signed, offers 2.0\n")
        #expect(d.disk.read(offer: url)?.offered == "2.0")
        #expect(d.disk.read(offer: url + "/other")?.offered == nil, "an answer for another URL")
        d.write("offered", "source=\(url)\nversion=\nmessage=not signed by this image's update key\n")
        #expect(d.disk.read(offer: url)?.offered == nil, "a refused list offers nothing")
        d.write("offered", "source=\(url)\nversion=../../x\n")
        #expect(d.disk.read(offer: url)?.offered == nil, "not a version")

        // The watch asks root when the offer is a URL: at once, then hourly; never for a folder.
        let watch = ImageWatch(disk: d.disk)
        let r = ImageUpdateRequestTests.requests(d)
        var asked: [String] = []
        watch.askWhatIsOffered = { asked.append($0); r.askWhatIsOffered(at: $0) }
        _ = watch.advance(now: 100, offer: "/media/usb")
        #expect(asked.isEmpty)
        _ = watch.advance(now: 101, offer: url)
        #expect(asked == [url])
        #expect((try? String(contentsOfFile: d.disk.offerCheckRequest, encoding: .utf8)) == "source=\(url)\n")
        _ = watch.advance(now: 101 + ImageWatch.interval, offer: url)
        #expect(asked == [url])
        #expect(watch.nextDeadline == 101 + 2 * ImageWatch.interval)
        _ = watch.advance(now: 101 + ImageWatch.offerCheckInterval, offer: url)
        #expect(asked == [url, url])
        // Not an image: never asked.
        let plain = ImageWatch(disk: Device().disk)
        plain.askWhatIsOffered = { asked.append($0) }
        _ = plain.advance(now: 0, offer: url)
        #expect(asked.count == 2)
    }
}
