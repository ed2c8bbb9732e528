import Glibc
@testable import KioskConfiguration
@testable import KioskSystem
import Testing
@testable import Kiosk

/// Paths of the repository's config files, found from this source file.
enum ConfigPaths {
    static let testsDirectory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!])
    }()
    static let fixtures = testsDirectory + "/ConfigFixtures"
    static let repository = String(testsDirectory[..<testsDirectory.index(testsDirectory.endIndex, offsetBy: -"/Tests/KioskTests".count)])
    static let example = repository + "/systemd/kiosk.toml"

    static func fixture(_ name: String) -> String { fixtures + "/" + name }
}

/// A scratch directory removed at the end of a test.
final class ScratchDirectory {
    let path: String

    init() {
        var template = Array("/tmp/kiosk-config-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        // Only what the tests create: plain files, and folders of plain files.
        for name in (try? Directory.names(in: path)) ?? [] {
            let entry = path + "/" + name
            if unlink(entry) != 0 {
                for inner in (try? Directory.names(in: entry)) ?? [] { unlink(entry + "/" + inner) }
                rmdir(entry)
            }
        }
        rmdir(path)
    }

    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        write(name, bytes: Array(text.utf8), mode: mode)
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8], mode: mode_t = 0o644) -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, mode)
        precondition(fd >= 0, "cannot create \(file)")
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            precondition(n > 0)
            written += n
        }
        close(fd)
        chmod(file, mode)
        return file
    }
}

func readBytes(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}

/// The problems' one-line descriptions, for messages in failed expectations.
func lines(_ problems: [ConfigProblem]) -> String { problems.map(\.description).joined(separator: "\n") }

/// A minimal valid config with `extra` appended (TOML allows tables in any order).
func minimalConfig(_ extra: String = "") -> String {
    """
    [screens.main]
    style = "arc"

    [[screens.main.items]]
    label = "Hello"
    action = "back"

    """ + extra
}
