import TOML

/// `[mqtt]`: a broker the kiosk publishes its state to and takes commands from (Home Assistant
/// discovery, fleets). Absent: no MQTT at all.
public struct MQTTConfig: Sendable, Equatable {
    public var broker: MQTTBroker
    /// Nil: `kiosk-` and the machine id's first 12 characters (else the host name), see `MQTTIdentity`.
    public var clientID: String?
    /// Every topic starts with it; nil: `kiosk/CLIENT_ID`.
    public var topicPrefix: String?
    /// A file with `username = "..."` and `password = "..."` (TOML), readable only by the service.
    public var credentialsFile: String?
    /// PEM certificates the broker's is checked against; nil with `mqtts://`: the system's (/etc/ssl/certs).
    public var caFile: String?
    /// A client certificate and its key (PEM), for brokers that ask for one.
    public var certFile: String?
    public var keyFile: String?
    /// Seconds between pings when nothing else is sent; the broker drops the kiosk after 1.5 times it.
    public var keepalive: Int
    /// Publish Home Assistant discovery documents under `discoveryPrefix`.
    public var discovery: Bool
    public var discoveryPrefix: String

    public init(broker: MQTTBroker, clientID: String? = nil, topicPrefix: String? = nil, credentialsFile: String? = nil,
                caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, keepalive: Int = 30,
                discovery: Bool = true, discoveryPrefix: String = "homeassistant") {
        self.broker = broker
        self.clientID = clientID
        self.topicPrefix = topicPrefix
        self.credentialsFile = credentialsFile
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.keepalive = keepalive
        self.discovery = discovery
        self.discoveryPrefix = discoveryPrefix
    }

    /// TLS when the broker is `mqtts://` or a CA or client certificate is named.
    public var usesTLS: Bool { broker.tls || caFile != nil || certFile != nil }
}

/// `broker = "mqtt://host:1883"`, `"mqtts://host"` (TLS, port 8883), `"host"` or `"host:port"`,
/// IPv6 in brackets (`"[::1]:1883"`).
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int = 1883, tls: Bool = false) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// Nil with the reason when `text` is not a broker address.
    public static func parse(_ text: String) -> Result<MQTTBroker, MQTTBrokerError> {
        var rest = Substring(text)
        var tls = false
        if let scheme = rest.firstRange(of: "://") {
            switch rest[..<scheme.lowerBound].lowercased() {
            case "mqtt", "tcp": tls = false
            case "mqtts", "ssl": tls = true
            case let other: return .failure(MQTTBrokerError("unknown scheme \"\(other)\" (mqtt:// or mqtts://)"))
            }
            rest = rest[scheme.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(MQTTBrokerError("an IPv6 address needs its closing ]")) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(MQTTBrokerError("expected :PORT after ]")) }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { return .failure(MQTTBrokerError("no host")) }
        if let bad = host.unicodeScalars.first(where: { !($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._:".unicodeScalars.contains($0)) }) {
            return .failure(MQTTBrokerError("\"\(bad)\" cannot be in a host name"))
        }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                return .failure(MQTTBrokerError("the port must be a number from 1 to 65535, got \"\(portText)\""))
            }
            port = p
        }
        return .success(MQTTBroker(host: String(host), port: port, tls: tls))
    }

    public var description: String {
        (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}

public struct MQTTBrokerError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The user name and password of `credentials_file`: a TOML file with `username` (required) and
/// `password`. Kept out of the config itself so that the config can be shown and shared.
public struct MQTTCredentials: Sendable, Equatable {
    public var username: String
    public var password: String?

    public init(username: String, password: String?) {
        self.username = username
        self.password = password
    }

    /// Reads and parses the file; a problem is one sentence without the file's name.
    public static func read(path: String) -> Result<MQTTCredentials, MQTTCredentialsError> {
        let text: String
        do {
            text = try ConfigFileReader.read(path: path, maximumSize: 64 * 1024)
        } catch {
            return .failure(MQTTCredentialsError("cannot be read: \(error)"))
        }
        return parse(text)
    }

    /// A problem names the line and the kind of mistake, never the text: it goes to the banner,
    /// the status file and the log, and a mistyped line may be the password itself.
    public static func parse(_ text: String) -> Result<MQTTCredentials, MQTTCredentialsError> {
        let table: TOMLTable
        do {
            table = try TOMLTable(parsing: text)
        } catch {
            return .failure(MQTTCredentialsError("is not TOML at line \(error.line), column \(error.column): \(error.summary) "
                + "(write username = \"...\" and password = \"...\"; the file's text is not shown)"))
        }
        for entry in table.entries where entry.key != "username" && entry.key != "password" {
            return .failure(MQTTCredentialsError("has a key other than username and password at line \(entry.keyPosition.line) "
                + "(the file's text is not shown)"))
        }
        guard let user = table["username"] else { return .failure(MQTTCredentialsError("has no username = \"...\"")) }
        guard let username = user.string, !username.isEmpty else { return .failure(MQTTCredentialsError("username must be a non-empty string")) }
        var password: String?
        if let p = table["password"] {
            guard let s = p.string else { return .failure(MQTTCredentialsError("password must be a string")) }
            password = s
        }
        return .success(MQTTCredentials(username: username, password: password))
    }
}

public struct MQTTCredentialsError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// What an MQTT topic level written in the config may hold: no wildcards, no empty levels, no NUL.
public enum MQTTTopic {
    /// Nil when `prefix` can start the kiosk's topics; else why not.
    public static func prefixProblem(_ prefix: String) -> String? {
        if prefix.isEmpty { return "empty; leave the key out for kiosk/CLIENT_ID" }
        if prefix.utf8.count > 1024 { return "too long (\(prefix.utf8.count) bytes; at most 1024)" }
        if prefix.hasPrefix("/") || prefix.hasSuffix("/") { return "must not start or end with /" }
        if prefix.contains("//") { return "has an empty level (//)" }
        if prefix.contains("+") || prefix.contains("#") { return "must not hold the wildcards + or #" }
        if prefix.hasPrefix("$") { return "must not start with $ (the broker's own topics)" }
        if prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "must not hold control characters" }
        return nil
    }

    /// A client id or item id made into one topic level and Home Assistant object id: letters,
    /// digits, `_` and `-` kept, anything else `_`.
    public static func level(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") ? $0 : "_"
        }))
    }
}
