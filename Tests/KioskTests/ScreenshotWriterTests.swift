import Foundation
import Glibc
@testable import Kiosk
@testable import Raster
import Synchronization
import TestSupport
import Testing

/// Screenshots are encoded on a thread of their own: the image comes back whole, the sidecar only
/// after it, one at a time, and a folder that cannot be written is reported, not fatal.
@Suite struct ScreenshotWriterTests {
    final class Folder {
        let dir: String
        init() {
            var template = Array("/tmp/kiosk-shot-test-XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// What `done` reported; `waitForOne` returns once it has reported one more (false: not within `seconds`).
    final class Outcome: Sendable {
        let results = Mutex<[Result<Void, ScreenshotError>]>([])
        private let reported = DispatchSemaphore(value: 0)

        func done(_ result: Result<Void, ScreenshotError>) {
            results.withLock { $0.append(result) }
            reported.signal()
        }

        func waitForOne(seconds: Double) -> Bool {
            reported.wait(timeout: .now() + seconds) == .success
        }
    }

    static func image(_ width: Int, _ height: Int) throws -> PixelBuffer {
        let image = try PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.setPixel(x: x, y: y, UInt32(truncatingIfNeeded: x &* 2654435761 ^ y &* 40503) | 0xFF00_0000) } }
        return image
    }

    @Test func writesTheImageThenTheSidecar() throws {
        let folder = Folder(), writer = ScreenshotWriter(), outcome = Outcome()
        let image = try Self.image(640, 480)
        let path = folder.dir + "/shot.png"
        #expect(writer.write(image, to: path, sidecar: "offset=3+0.5\n", done: outcome.done))
        #expect(outcome.waitForOne(seconds: Patience.seconds))
        let results = outcome.results.withLock { $0 }
        #expect(results.count == 1)
        if case .failure(let e) = results.first { Issue.record("write failed: \(e)") }
        let back = try PNGCodec.read(path: path)
        #expect(back.width == 640 && back.height == 480)
        var differing = 0
        for y in 0..<480 { for x in 0..<640 where back.row(y)[x] & 0xFF_FFFF != image.row(y)[x] & 0xFF_FFFF { differing += 1 } }
        #expect(differing == 0)
        #expect(try String(contentsOfFile: path + ".txt", encoding: .utf8) == "offset=3+0.5\n")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func oneAtATime() throws {
        let folder = Folder(), writer = ScreenshotWriter(), outcome = Outcome()
        // Large enough that its encoding is still running when the second request comes.
        let big = try Self.image(4096, 4096)
        #expect(writer.write(big, to: folder.dir + "/a.png", sidecar: "a\n", done: outcome.done))
        #expect(!writer.write(big, to: folder.dir + "/b.png", sidecar: "b\n", done: outcome.done))
        #expect(outcome.waitForOne(seconds: Patience.seconds))
        #expect(outcome.results.withLock { $0.count } == 1)
        #expect(FileManager.default.fileExists(atPath: folder.dir + "/a.png.txt"))
        #expect(!FileManager.default.fileExists(atPath: folder.dir + "/b.png"))
        // Idle again: the next request is taken.
        #expect(writer.write(try Self.image(8, 8), to: folder.dir + "/c.png", sidecar: "c\n", done: outcome.done))
        #expect(outcome.waitForOne(seconds: Patience.seconds))
        #expect(FileManager.default.fileExists(atPath: folder.dir + "/c.png.txt"))
    }

    @Test func aFolderThatCannotBeWrittenIsReported() throws {
        let folder = Folder(), writer = ScreenshotWriter(), outcome = Outcome()
        let path = folder.dir + "/missing/shot.png"
        #expect(writer.write(try Self.image(8, 8), to: path, sidecar: "x\n", done: outcome.done))
        #expect(outcome.waitForOne(seconds: Patience.seconds))
        let results = outcome.results.withLock { $0 }
        guard case .failure(let error)? = results.first else { Issue.record("no failure: \(results)"); return }
        #expect("\(error)".contains("missing"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: path + ".txt"))
    }
}
