import CInput
import CLinux
import DRMOutput
import Glibc
import KioskSystem

/// Dials that report REL_DIAL with a button (the Griffin PowerMate, many USB volume knobs).
/// libinput ignores such devices entirely, so they are read from their evdev nodes here, found
/// by the same udev machinery and served by the same event loop.
public final class EvdevDials {
    /// One open dial: the one owner of its file descriptor.
    final class Dial {
        let node: String
        let name: String
        let descriptor: OwnedDescriptor
        init(node: String, name: String, descriptor: OwnedDescriptor) {
            self.node = node
            self.name = name
            self.descriptor = descriptor
        }
    }

    private let monitor: UdevMonitor
    private var dials: [String: Dial] = [:]
    private weak var loop: EventLoop?
    private let deliver: (RawInputEvent) -> Void
    private var reportedFailures = Set<String>()
    /// Told when a dial was added or removed.
    public var devicesChanged: () -> Void = {}
    /// Dials open now.
    public var count: Int { dials.count }

    public init(deliver: @escaping (RawInputEvent) -> Void) throws(SystemError) {
        monitor = try UdevMonitor(subsystem: "input")
        self.deliver = deliver
    }

    public func attach(to loop: EventLoop) throws(SystemError) {
        self.loop = loop
        try loop.watch(monitor.fd) { [unowned self] in self.udevEvents() }
        for node in Self.eventNodes() { consider(node) }
    }


    private func udevEvents() {
        for e in monitor.drain() {
            guard let node = e.deviceNode, node.hasPrefix("/dev/input/event") else { continue }
            switch e.action {
            case "add": consider(node)
            case "remove": drop(node)
            default: break
            }
        }
    }

    /// Opens `node` if it is a dial that libinput leaves alone (REL_DIAL and no pointer motion).
    private func consider(_ node: String) {
        guard dials[node] == nil else { return }
        let descriptor: OwnedDescriptor
        do {
            descriptor = try OwnedDescriptor.open(node, O_RDONLY | O_NONBLOCK)
        } catch {
            // Only worth a word when it would have been a dial; we cannot know, so say it once.
            if error.errno == EACCES, reportedFailures.insert(node).inserted {
                Log.debug("cannot open \(node) to look for a dial: \(error)")
            }
            return
        }
        let fd = descriptor.rawValue
        var relBits = [UInt8](repeating: 0, count: 8)
        let got = relBits.withUnsafeMutableBytes { ioctl(fd, Self.eviocgbit(type: UInt32(EV_REL), length: 8), $0.baseAddress!) }
        guard got >= 0, Self.bit(relBits, REL_DIAL), !Self.bit(relBits, REL_X) else { return }
        var nameBytes = [CChar](repeating: 0, count: 128)
        _ = nameBytes.withUnsafeMutableBytes { ioctl(fd, Self.eviocgname(length: 127), $0.baseAddress!) }
        let name = nameBytes.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // Evdev stamps events with CLOCK_REALTIME unless told otherwise; every other time in the
        // kiosk is CLOCK_MONOTONIC.
        var clock = Int32(CLOCK_MONOTONIC)
        do {
            try retryingInterrupts("ioctl(EVIOCSCLOCKID)") { ioctl(fd, kiosk_EVIOCSCLOCKID, &clock) }
        } catch {
            Log.warning("dial \(name) [\(node)]: cannot set its event clock to CLOCK_MONOTONIC (\(error)); "
                + "its events will carry wall-clock (CLOCK_REALTIME) times, so input latency measured from them is wrong")
        }
        let dial = Dial(node: node, name: name, descriptor: descriptor)
        do {
            try loop?.watch(fd) { [unowned self, unowned dial] in self.read(dial) }
        } catch {
            Log.warning("cannot watch dial \(node): \(error)")
            return
        }
        dials[node] = dial
        Log.info("input device added: \(name) [\(node.split(separator: "/").last ?? "")] (dial, read from evdev)")
        devicesChanged()
    }

    private func drop(_ node: String) {
        guard let dial = dials.removeValue(forKey: node) else { return }
        loop?.unwatch(dial.descriptor.rawValue)
        Log.info("input device removed: \(dial.name) [\(node.split(separator: "/").last ?? "")]")
        devicesChanged()
        FreedMemory.returnToSystem()
    }

    private func read(_ dial: Dial) {
        let size = MemoryLayout<input_event>.size
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size * 64, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try dial.descriptor.read(into: buffer)
            } catch {
                // ENODEV: unplugged; udev's remove follows, but stop watching now.
                drop(dial.node)
                return
            }
            guard n >= size else { return }
            for i in 0..<(n / size) {
                let e = buffer.loadUnaligned(fromByteOffset: i * size, as: input_event.self)
                let t = Double(e.time.tv_sec) + Double(e.time.tv_usec) / 1e6
                if e.type == UInt16(EV_REL), e.code == UInt16(REL_DIAL), e.value != 0 {
                    deliver(.dial(steps: Int(e.value), time: t))
                } else if e.type == UInt16(EV_KEY), e.value == 0 || e.value == 1 {
                    deliver(.key(code: UInt32(e.code), pressed: e.value == 1, time: t))
                }
            }
        }
    }

    static func bit(_ bits: [UInt8], _ n: Int32) -> Bool {
        let i = Int(n)
        return i / 8 < bits.count && bits[i / 8] & (1 << UInt8(i % 8)) != 0
    }

    /// EVIOCGBIT(type, length) and EVIOCGNAME(length): `_IOC(_IOC_READ, 'E', nr, length)`.
    static func eviocgbit(type: UInt32, length: UInt32) -> UInt { ioc(read: 0x20 + type, length: length) }
    static func eviocgname(length: UInt32) -> UInt { ioc(read: 0x06, length: length) }
    static func ioc(read nr: UInt32, length: UInt32) -> UInt {
        UInt(2 << 30 | length << 16 | UInt32(UInt8(ascii: "E")) << 8 | nr)
    }

    /// /dev/input/event* nodes present now. No folder (no input device yet) is none; a folder
    /// that cannot be read is logged and none.
    static func eventNodes() -> [String] {
        do {
            return try Directory.names(in: "/dev/input").filter { $0.hasPrefix("event") }.map { "/dev/input/\($0)" }
        } catch {
            if error.errno != ENOENT { Log.warning("listing the input devices: \(error)") }
            return []
        }
    }
}
