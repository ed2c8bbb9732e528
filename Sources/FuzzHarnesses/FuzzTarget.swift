/// What `kiosk-fuzz` can fuzz; each takes any bytes and traps on an incoherent outcome.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The config reader and the text path (`checkConfigCoherently`).
    case config
    /// MQTT command messages through the control door (`MQTTHarness`).
    case mqtt
    /// D-Bus calls through a real bus to a running kiosk (`DBusHarness`).
    case dbus
    /// Icon files: PNG decoding and SVG through the worker (`IconHarness`).
    case icon

    /// Runs one input; a line saying what came of it (for a replay).
    public func run(_ bytes: [UInt8]) -> String {
        switch self {
        case .config:
            return checkConfigCoherently(bytes) == nil ? "refused" : "valid"
        case .mqtt: return MQTTHarness.run(bytes)
        case .dbus: return DBusHarness.shared.run(bytes)
        case .icon: return IconHarness.run(bytes)
        }
    }

    /// Its seed corpus, relative to the package: kept in the tree.
    public var corpus: String { "Tests/fuzz/\(rawValue)-corpus" }
}
