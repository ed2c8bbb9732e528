import Glibc
import KioskConfiguration
import KioskSystem

/// Reads and writes the files of a `/sys/class/backlight` device. The one place that touches
/// them; tests pass their own to fail writes the way a device does (EACCES when the udev rule is
/// missing, EROFS under a sandbox that does not allow the path), which root cannot provoke on a
/// plain temporary file.
public struct BacklightFiles: Sendable {
    public var read: @Sendable (String) throws(SystemError) -> String
    public var write: @Sendable (String, String) throws(SystemError) -> Void
    /// The names in a folder, sorted.
    public var list: @Sendable (String) throws(SystemError) -> [String]

    public init(read: @escaping @Sendable (String) throws(SystemError) -> String,
                write: @escaping @Sendable (String, String) throws(SystemError) -> Void,
                list: @escaping @Sendable (String) throws(SystemError) -> [String]) {
        self.read = read
        self.write = write
        self.list = list
    }

    /// The real files: sysfs attributes are read whole and written with one write(2), without
    /// creating or truncating anything.
    public static let system = BacklightFiles(
        read: { (path: String) throws(SystemError) -> String in
            let fd = try OwnedDescriptor.open(path, O_RDONLY)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
            defer { buffer.deallocate() }
            let n = try fd.read(into: buffer)
            return String(decoding: buffer[0..<n], as: UTF8.self)
        },
        write: { (path: String, text: String) throws(SystemError) in
            let fd = try OwnedDescriptor.open(path, O_WRONLY | O_TRUNC)
            let bytes = Array(text.utf8)
            let n = try retryingInterrupts("write \(path)") { bytes.withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress, $0.count) } }
            if n != bytes.count { throw SystemError("write \(path)", errno: EIO) }
        },
        list: { (directory: String) throws(SystemError) -> [String] in try Directory.names(in: directory) })
}

/// One backlight device: the brightness in force when the kiosk started (restored on exit and
/// before an `exec` program gets the display), lowered to a fraction of it when the panel dims,
/// 0 when it blanks. A device that vanishes or refuses writes is logged once (again only when
/// the reason changes or it worked in between); the kiosk goes on and the panel still blanks by DPMS.
public final class Backlight {
    public static let classDirectory = "/sys/class/backlight"
    public let name: String
    public let directory: String
    public let maxBrightness: Int
    /// The brightness the panel had at start: the "on" level.
    public let normal: Int
    /// The value last written successfully (nil: none yet).
    public private(set) var current: Int?
    private let files: BacklightFiles
    private let warn: (String) -> Void
    /// The errno of the failure logged last; nil while writes work.
    private var failing: Int32?
    /// A value was written: there is something to restore.
    private var touched = false

    /// Opens `choice` under `classDirectory`; nil when there is none to use (`none`, or `auto`
    /// with no device: said once in the log). A named device that is missing or unreadable is a
    /// warning and nil.
    public static func open(_ choice: BacklightChoice, classDirectory: String = Backlight.classDirectory,
                            files: BacklightFiles = .system, warn: @escaping (String) -> Void = { Log.warning($0) },
                            info: (String) -> Void = { Log.info($0) }) -> Backlight? {
        let name: String
        switch choice {
        case .none:
            return nil
        case .named(let n):
            name = n
        case .auto:
            let first: String?
            do {
                first = try files.list(classDirectory).first
            } catch where error.errno == ENOENT {
                first = nil
            } catch {
                warn("backlight devices in \(classDirectory): \(error); the panel is blanked by DPMS alone and dimming changes nothing")
                return nil
            }
            guard let first else {
                info("no backlight device in \(classDirectory): the panel is blanked by DPMS alone and dimming changes nothing")
                return nil
            }
            name = first
        }
        do {
            return try Backlight(name: name, classDirectory: classDirectory, files: files, warn: warn)
        } catch {
            warn("backlight \(name): \(error); the panel is blanked by DPMS alone and dimming changes nothing")
            return nil
        }
    }

    init(name: String, classDirectory: String, files: BacklightFiles, warn: @escaping (String) -> Void) throws(SystemError) {
        self.name = name
        directory = classDirectory + "/" + name
        self.files = files
        self.warn = warn
        maxBrightness = try Self.number(files, directory + "/max_brightness")
        let start = try Self.number(files, directory + "/brightness")
        // A kiosk restarted while its panel was off finds 0: the panel would stay dark for good.
        if start <= 0 {
            Log.info("backlight \(name) is at 0 at start (a kiosk stopped while blanked?); \(maxBrightness) is its normal level")
            normal = maxBrightness
        } else {
            normal = min(start, maxBrightness)
        }
        if maxBrightness <= 0 { throw SystemError("max_brightness \(directory) is \(maxBrightness)", errno: EINVAL) }
    }

    private static func number(_ files: BacklightFiles, _ path: String) throws(SystemError) -> Int {
        let text = try files.read(path)
        guard let n = Int(text.filter { !$0.isWhitespace }) else { throw SystemError("read \(path): not a number (\(text.prefix(20)))", errno: EINVAL) }
        return n
    }

    /// Puts back the brightness in force at start (exit, `exec` handover).
    @discardableResult
    public func restore() -> Bool {
        guard touched else { return true }
        return write(normal)
    }

    /// Writes the raw `value` (0 ... `maxBrightness`); false when the device refused (logged once).
    package func write(_ value: Int) -> Bool {
        guard value != current else { return true }
        do {
            try files.write(directory + "/brightness", "\(value)\n")
            current = value
            touched = true
            if failing != nil { Log.info("backlight \(name) written again") }
            failing = nil
            return true
        } catch {
            current = nil
            if failing != error.errno {
                let hint: String
                switch error.errno {
                case EACCES, EPERM: hint = " (the udev rule that lets the kiosk's group write it is missing?)"
                case EROFS: hint = " (the service's sandbox does not allow the path: ReadWritePaths=)"
                case ENOENT, ENODEV: hint = " (the device went away)"
                default: hint = ""
                }
                warn("backlight \(name): \(error)\(hint); the panel is blanked by DPMS alone")
            }
            failing = error.errno
            return false
        }
    }
}
