import FuzzHarnesses
import Glibc
import Testing
import TestSupport

/// The fuzz harnesses' smoke (scripts/fuzz runs them for minutes with libFuzzer): every input
/// kept in `Tests/fuzz/TARGET-corpus` goes through its harness, which traps on an incoherent
/// outcome (something behind the PIN run or shown, a call left unanswered, an icon decoded past
/// its limits); for the control targets, seeded mutations of those inputs too. A trap ends the
/// test process, which fails the run. One test at a time: the D-Bus harness is one kiosk.
@Suite(.serialized) struct FuzzCorpusTests {
    static func corpus(_ target: FuzzTarget) -> [(name: String, bytes: [UInt8])] {
        let folder = ConfigPaths.repository + "/" + target.corpus
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { ($0, readBytes(folder + "/" + $0)) }
    }

    /// A byte flipped, inserted, removed or repeated, or two inputs spliced: libFuzzer's simplest
    /// mutations, enough for a smoke.
    static func mutate(_ bytes: [UInt8], with other: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !out.isEmpty: out[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: out.insert([0x1E, 0x0A, 0x2F, 0x00, 0xFF, 0x7B].randomElement(using: &rng)!, at: at)
            case 2 where !out.isEmpty: out.remove(at: at)
            case 3 where !out.isEmpty: out.insert(contentsOf: out[at..<min(out.count, at + 8)], at: at)
            default: out = Array(out.prefix(at)) + other.suffix(max(0, other.count - at))
            }
        }
        return out
    }

    static func replay(_ target: FuzzTarget, mutations: Int, seed: UInt64) {
        let inputs = corpus(target)
        #expect(inputs.count >= 5, "\(target.corpus) has \(inputs.count) inputs")
        for input in inputs { _ = target.run(input.bytes) }
        var rng = SeededGenerator.fromEnvironment(defaultSeed: seed)
        for _ in 0..<mutations where !inputs.isEmpty {
            let a = inputs.randomElement(using: &rng)!.bytes, b = inputs.randomElement(using: &rng)!.bytes
            _ = target.run(mutate(a, with: b, using: &rng))
        }
    }

    @Test func configCorpus() { Self.replay(.config, mutations: 0, seed: 0) }

    @Test func mqttCorpusAndMutations() { Self.replay(.mqtt, mutations: 400, seed: 31) }

    @Test func dbusCorpusAndMutations() { Self.replay(.dbus, mutations: 150, seed: 32) }

    @Test func iconCorpus() { Self.replay(.icon, mutations: 0, seed: 0) }

    /// What the control corpora are for: the locked items in them are refused, whatever carried them.
    @Test func lockedItemsAreRefusedOverEveryTransport() {
        let mqtt = FuzzTarget.mqtt.run(Array("kiosk/fuzz/cmd/press/factory-reset\n\u{1E}kiosk/fuzz/cmd/value/kiln-offset\n4".utf8))
        #expect(mqtt == "error: Locked; done", "\(mqtt)")
        let dbus = FuzzTarget.dbus.run(Array("Press\ns\nfactory-reset\u{1E}SetValue\nss\nkiln-offset\n4".utf8))
        #expect(dbus == "Press: org.kiosk.Kiosk1.Error.Locked; SetValue: reply ()", "\(dbus)")
    }

    /// An update asked over either transport of a kiosk that is no disk image and offers none:
    /// refused with its reason, nothing asked of root.
    @Test func updatesAreRefusedOverEveryTransportWhenNotOffered() {
        let mqtt = FuzzTarget.mqtt.run(Array("kiosk/fuzz/cmd/update\ninstall".utf8))
        #expect(mqtt == "error: NotOffered", "\(mqtt)")
        let dbus = FuzzTarget.dbus.run(Array("Update\nsbb\n/media/usb/update\ntrue\ntrue\u{1E}GetImage\n".utf8))
        #expect(dbus == "Update: org.kiosk.Kiosk1.Error.NotAnImage; GetImage: org.kiosk.Kiosk1.Error.NotAnImage", "\(dbus)")
    }
}
