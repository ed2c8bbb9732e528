import Glibc
import KioskSystem
import Raster
import Synchronization

/// Writes screenshots off the event loop. Encoding a 1024x768 PNG takes a second or more on a
/// slow device (several under emulation, on a busy host), long enough for the watchdog to kill a
/// loop that did it. The PNG goes to a temporary file renamed over the path, and only then the
/// sidecar (`PATH.txt`) is written: whoever sees the sidecar finds the whole image. One at a
/// time: a request while one is being written is refused.
final class ScreenshotWriter: Sendable {
    private let busy = Atomic<Bool>(false)

    /// The image and what goes in the sidecar, handed to the writing thread. `@unchecked`:
    /// the image is the caller's own copy (`Output.screenshot()`), which it keeps no reference to.
    private struct Job: @unchecked Sendable {
        let image: PixelBuffer
        let path: String
        let sidecar: String
    }

    /// Starts writing `image` to `path` and `sidecar` to `path.txt`; false (nothing started) while
    /// the previous screenshot is still being written. `done` runs on the writing thread once the
    /// writer takes requests again, so whoever `done` tells can ask for the next one at once.
    @discardableResult
    func write(_ image: PixelBuffer, to path: String, sidecar: String,
               done: @escaping @Sendable (Result<Void, ScreenshotError>) -> Void) -> Bool {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        let job = Job(image: image, path: path, sidecar: sidecar)
        do {
            try startDetachedThread { [self] in
                let result = Self.run(job)
                busy.store(false, ordering: .releasing)
                done(result)
            }
        } catch {
            busy.store(false, ordering: .releasing)
            done(.failure(.system(error)))
        }
        return true
    }

    private static func run(_ job: Job) -> Result<Void, ScreenshotError> {
        let temporary = job.path + ".tmp"
        do {
            try PNGCodec.write(job.image, to: temporary)
        } catch {
            return .failure(.png(error))
        }
        guard rename(temporary, job.path) == 0 else {
            let e = SystemError.last("rename \(temporary)")
            unlink(temporary)
            return .failure(.system(e))
        }
        do {
            try writeFileAtomically(job.path + ".txt", job.sidecar)
        } catch {
            return .failure(.system(error))
        }
        return .success(())
    }
}

/// Why a screenshot was not written: its PNG could not be (Raster's error), or a step of the
/// writer's own failed (starting its thread, the rename, the sidecar).
enum ScreenshotError: Error, Equatable, CustomStringConvertible {
    case png(RasterError)
    case system(SystemError)

    var description: String {
        switch self {
        case .png(let error): error.description
        case .system(let error): error.description
        }
    }
}
