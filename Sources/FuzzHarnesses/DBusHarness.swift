import DRMOutput
import Foundation
import Glibc
import Kiosk
import KioskConfiguration
import KioskSystem
import SystemBus

/// The D-Bus API as a caller on the bus reaches it: a private dbus-daemon, the kiosk's runtime
/// serving `org.kiosk.Kiosk1` on it (headless), and a client on another thread sending one call
/// per record and waiting for its answer while the runtime's loop turns. A record is a member
/// (`Interface.Name.Member` for another interface), a newline, the signature, then one argument
/// per line (`s` as the line's text, `d`, `i`, `u` as numbers, `b` as true/1). The daemon checks
/// what is on the wire, so the kiosk gets well-formed messages of any member and signature; that
/// is the surface fuzzed. Traps when a call gets no answer (the kiosk hung or died), an error
/// outside the API's and D-Bus's argument errors, or anything behind the PIN runs or shows.
/// Made once per process (starting the daemon and the runtime costs a second); the daemon is
/// ended at exit.
public final class DBusHarness {
    nonisolated(unsafe) public static let shared: DBusHarness = {
        do {
            return try DBusHarness()
        } catch {
            fatalError("the D-Bus harness cannot start: \(error)")
        }
    }()

    /// Errors a call may get: the API's own, and D-Bus's for an unknown member or wrong arguments.
    static let acceptedErrors: Set<String> = ["org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
                                              "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.InvalidArgs"]
    /// How long a call may wait for its answer before the kiosk counts as hung.
    static let answerSeconds = 60.0

    private let folder: String
    private let app: KioskApp
    private let runtime: Runtime
    private let caller: BusCaller
    private let lock = NSLock()
    nonisolated(unsafe) private static var daemon: pid_t = 0

    private init() throws {
        folder = "/tmp/kiosk-fuzz-dbus-\(getpid())"
        mkdir(folder, 0o700)
        let address = "unix:path=\(folder)/bus"
        // Its output to /dev/null: a daemon left behind by a crash must not hold a pipe the
        // harness's caller waits on (scripts/fuzz's tee, a test runner's).
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        Self.daemon = try ProcessLauncher.start(Command(argv: ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile",
                                                               "--address=\(address)"]), output: null, errors: null)
        atexit { if DBusHarness.daemon > 0 { kill(DBusHarness.daemon, SIGKILL) } }
        let started = MonotonicClock.now()
        while access(folder + "/bus", F_OK) != 0 {
            guard MonotonicClock.now() - started < Self.answerSeconds else { throw FuzzSetupError("dbus-daemon made no socket in \(folder)") }
            usleep(10_000)
        }
        app = try KioskApp(config: ControlFixture.config, width: 320, height: 240, now: MonotonicClock.now())
        let output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
        runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                              options: Runtime.Options(statusFile: folder + "/status.json", controlBus: .address(address)),
                              startup: StartupTimeline())
        try runtime.start()
        caller = BusCaller(address: address)
        // Ready once the kiosk has its name and answers.
        while true {
            if case .reply = try answer(BusCall(member: "GetState", signature: "", arguments: [])) { break }
            guard MonotonicClock.now() - started < Self.answerSeconds else { throw FuzzSetupError("the kiosk never answered on the bus") }
        }
    }

    /// One line per call, for a replay. One input at a time (tests may call from several threads).
    public func run(_ bytes: [UInt8]) -> String {
        lock.withLock { runAlone(bytes) }
    }

    private func runAlone(_ bytes: [UInt8]) -> String {
        var outcomes: [String] = []
        // Each input starts at home, as far as the API can take it there.
        _ = try? answer(BusCall(member: "GoHome", signature: "", arguments: []))
        for record in FuzzRecords.split(bytes, limit: 16) {
            let call = BusCall(record)
            let outcome: BusCaller.Outcome
            do { outcome = try answer(call) } catch { fatalError("\(error)") }
            switch outcome {
            case .reply(let signature):
                outcomes.append("\(call.member): reply (\(signature))")
            case .notSent(let why):
                outcomes.append("\(call.member): not sent (\(why))")
            case .failed(let error):
                guard let name = error.name else { fatalError("\(call.member): no answer: \(error)") }
                precondition(name.hasPrefix(DBusNames.errorPrefix) || Self.acceptedErrors.contains(name),
                             "\(call.member): answered \(name): \(error.message ?? "")")
                ControlFixture.check(message: error.message ?? "")
                outcomes.append("\(call.member): \(name)")
            }
            ControlFixture.check(app)
        }
        return outcomes.joined(separator: "; ")
    }

    /// Sends `call` from the client's thread and turns the kiosk's loop until it is answered.
    private func answer(_ call: BusCall) throws -> BusCaller.Outcome {
        caller.send(call)
        let sent = MonotonicClock.now()
        while true {
            if let outcome = caller.outcome { return outcome }
            guard MonotonicClock.now() - sent < Self.answerSeconds + 5 else { throw FuzzSetupError("\(call.member): the client never came back") }
            try runtime.runOnce(timeout: 0.002)
        }
    }
}

struct FuzzSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A method call as a record gives it.
struct BusCall: Sendable {
    var interface = DBusNames.interface
    var member: String
    var signature: String
    var arguments: [String]

    init(member: String, signature: String, arguments: [String]) {
        self.member = member
        self.signature = signature
        self.arguments = arguments
    }

    init(_ record: FuzzRecords.Record) {
        let head = String(decoding: record.head, as: UTF8.self)
        if let dot = head.lastIndex(of: ".") {
            interface = String(head[..<dot])
            member = String(head[head.index(after: dot)...])
        } else {
            member = head
        }
        let lines = record.lines.map { String(decoding: $0, as: UTF8.self) }
        signature = lines.first ?? ""
        arguments = Array(lines.dropFirst())
    }
}

/// The client's side, on a thread of its own: `sd_bus_call` blocks, and the kiosk answering it
/// runs on the calling thread's loop.
final class BusCaller: @unchecked Sendable {
    enum Outcome {
        case reply(signature: String)
        case failed(BusError)
        /// sd-bus would not build it (a member name D-Bus does not allow, an argument that does
        /// not parse as its type): nothing reached the kiosk.
        case notSent(String)
    }

    private let condition = NSCondition()
    private var pending: BusCall?
    private var answered: Outcome?

    init(address: String) {
        let thread = Thread { [self] in serve(address: address) }
        thread.start()
    }

    func send(_ call: BusCall) {
        condition.withLock {
            answered = nil
            pending = call
            condition.signal()
        }
    }

    var outcome: Outcome? { condition.withLock { answered } }

    private func serve(address: String) {
        func connect() -> BusConnection {
            do {
                return try BusConnection(address: address)
            } catch {
                fatalError("the D-Bus harness's client cannot connect: \(error)")
            }
        }
        var connection = connect()
        while true {
            let call: BusCall = condition.withLock {
                while pending == nil { condition.wait() }
                defer { pending = nil }
                return pending!
            }
            var outcome = Self.make(call, on: connection)
            // The daemon drops a client that sends what D-Bus forbids (it never reached the kiosk).
            if case .failed(let error) = outcome, error.name == "org.freedesktop.DBus.Error.Disconnected" {
                outcome = .notSent("the daemon dropped the client: \(error.message ?? "")")
                connection = connect()
            }
            condition.withLock { answered = outcome }
        }
    }

    /// D-Bus's rule for a member name (and each element of an interface name): letters, digits
    /// and `_`, not starting with a digit, at most 255 bytes. sd-bus does not check it when a
    /// message is made; the daemon drops a client that sends one.
    static func isName(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, !(48...57).contains(first), text.utf8.count <= 255 else { return false }
        return text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 95 }
    }

    private static func make(_ call: BusCall, on connection: BusConnection) -> Outcome {
        let elements = call.interface.split(separator: ".", omittingEmptySubsequences: false)
        guard isName(call.member[...]), elements.count >= 2, elements.allSatisfy(isName), call.interface.utf8.count <= 255 else {
            return .notSent("not a D-Bus member and interface name")
        }
        let message: BusMessage
        do {
            message = try connection.methodCall(destination: DBusNames.service, path: DBusNames.path,
                                                interface: call.interface, member: call.member)
            var arguments = call.arguments.makeIterator()
            for type in call.signature {
                let text = arguments.next() ?? ""
                switch type {
                case "s": try message.append(text)
                case "d": try message.append(Double(text) ?? 0)
                case "b": try message.append(text == "true" || text == "1")
                case "i": try message.append(Int32(text) ?? 0)
                case "u": try message.append(UInt32(text) ?? 0)
                default: return .notSent("type \(type) is not made by this harness")
                }
            }
        } catch {
            return .notSent(error.description)
        }
        do {
            let reply = try connection.call(message, timeout: DBusHarness.answerSeconds)
            return .reply(signature: reply.signature)
        } catch {
            return .failed(error)
        }
    }
}
