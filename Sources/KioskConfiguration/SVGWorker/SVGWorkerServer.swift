import CLinux
import Glibc
import KioskSystem
import Raster

/// The worker's side (`kiosk svg-worker`): librsvg runs here, never in the kiosk's own process,
/// so that an SVG which makes it panic, loop or allocate without end takes this process down,
/// not the menu (`SVGRenderer` is the kiosk's side). The config's PNG images are decoded here
/// too: libpng parses no file a config names in the kiosk's process. Requests come on standard input, replies go
/// to standard output, one at a time, until standard input ends.
public enum SVGWorkerServer {
    /// Most memory the worker may map for data (RLIMIT_DATA): a render at the largest side is
    /// 16 MiB and librsvg's filters take a few copies; an image hidden in a `data:` URI that
    /// decodes larger than this fails to allocate instead of taking the device's memory.
    public static let dataLimit: UInt64 = 256 << 20
    /// CPU time one request may take (all the worker's threads) before SIGPROF ends the worker:
    /// what bounds a filter that loops for minutes, which librsvg cannot be asked to stop.
    public static let requestCPULimit = 4.0

    /// Confines this process, then serves requests; returns the exit status.
    public static func run() -> Int32 {
        let applied = confine()
        // Standard error is the kiosk's (its journal): a worker that runs less confined than it
        // should says so, once per start.
        for case (let what, .failure(let error)) in [("its file confinement", applied.files), ("its system call filter", applied.systemCalls)] {
            let line = "kiosk svg-worker: runs without \(what) (\(error))\n"
            _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
        }
        var documents: [UInt32: SVGDocument] = [:]
        while true {
            guard let header = readHeader(), header.kind != 0 else { return 0 }
            guard let payload = readExactly(Int(header.length)),
                  let request = SVGWorkerMessage.decodeRequest(header, payload: payload) else { return 2 }
            let start = processCPUSeconds()
            _ = kiosk_cpu_alarm(Int64(requestCPULimit * 1_000_000))
            let reply: SVGWorkerMessage.Reply
            switch request {
            case let .load(id, name, data):
                do {
                    let document = try SVGDocument(data: data, name: name)
                    documents[id] = document
                    reply = .loaded(width: document.intrinsicSize?.width, height: document.intrinsicSize?.height,
                                    cpuSeconds: processCPUSeconds() - start)
                } catch {
                    reply = .refused("\(error)", cpuSeconds: processCPUSeconds() - start)
                }
            case let .render(id, side):
                if let document = documents[id] {
                    do {
                        let image = try document.render(width: Int(side), height: Int(side))
                        reply = .rendered(side: side, pixels: SVGWorkerMessage.bytes(of: image), cpuSeconds: processCPUSeconds() - start)
                    } catch {
                        reply = .refused("\(error)", cpuSeconds: processCPUSeconds() - start)
                    }
                } else {
                    reply = .refused("no document \(id)", cpuSeconds: 0)
                }
            case let .decodePNG(_, data):
                do {
                    let image = try PNGCodec.decode(data)
                    reply = .decoded(width: UInt32(image.width), height: UInt32(image.height), pixels: SVGWorkerMessage.bytes(of: image),
                                     cpuSeconds: processCPUSeconds() - start)
                } catch {
                    reply = .refused("\(error)", cpuSeconds: processCPUSeconds() - start)
                }
            }
            _ = kiosk_cpu_alarm(0)
            guard writeAll(SVGWorkerMessage.encode(reply)) else { return 0 }
        }
    }

    /// No new privileges, no core dump, a cap on data, few descriptors; then the file system
    /// read-only and narrowed to the system's files (`ReadOnlyConfinement`) and the system calls
    /// that reach beyond the process refused (`SystemCallFilter`). What could not be applied (no
    /// Landlock in this kernel) is in the result; the worker serves either way, as confined as
    /// the kernel allows. (Not PR_SET_PDEATHSIG: it fires when the thread that started the worker
    /// ends, a config loader's; the worker ends when its socket does, which the kiosk's exit
    /// closes too.)
    @discardableResult
    static func confine() -> Confinement {
        _ = kiosk_prctl(PR_SET_NO_NEW_PRIVS, 1)
        _ = kiosk_setrlimit(kiosk_RLIMIT_CORE, 0)
        _ = kiosk_setrlimit(kiosk_RLIMIT_DATA, dataLimit)
        _ = kiosk_setrlimit(kiosk_RLIMIT_NOFILE, 64)
        let readable = ReadOnlyConfinement.readable { getenv($0).map { String(cString: $0) } }
        let files = Result { () throws(SystemError) in try ReadOnlyConfinement.restrictCallingThread(readable: readable) }
        let calls = Result { () throws(SystemError) in try SystemCallFilter.refuseEscapes() }
        return Confinement(files: files, systemCalls: calls)
    }

    /// What `confine` applied.
    struct Confinement {
        let files: Result<Void, SystemError>
        let systemCalls: Result<Void, SystemError>
    }

    /// Confines this process as `run` does, then tries what an SVG that took over librsvg would:
    /// write `writing`, read `reading` (a file of the kiosk's, say its config), open a socket,
    /// start a program, signal the kiosk (the parent); and reads the system's files, which must
    /// still work. One line per attempt; `contained` is false when anything that must be refused
    /// was not, or what must work did not. `kiosk svg-worker --probe` prints it: how far this
    /// kernel confines the worker.
    public static func probe(writing: String, reading: String) -> (lines: [String], contained: Bool) {
        let applied = confine()
        var lines: [String] = []
        var contained = true
        func describe(_ result: Result<Void, SystemError>, _ what: String) {
            switch result {
            case .success: lines.append("\(what): applied")
            case .failure(let error): lines.append("\(what): NOT APPLIED (\(error))"); contained = false
            }
        }
        describe(applied.files, "file confinement (Landlock)")
        describe(applied.systemCalls, "system call filter (seccomp)")
        func attempt(_ what: String, mustWork: Bool = false, _ call: () -> Int32) {
            let result = call()
            let error = errno
            if result >= 0, result != Int32.max { close(result) }
            let worked = result >= 0
            let said = worked ? "allowed" : "refused (\(String(cString: strerror(error))))"
            lines.append("\(what): \(worked == mustWork ? said : said.uppercased())")
            if worked != mustWork { contained = false }
        }
        attempt("write \(writing)") { open(writing, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        attempt("read \(reading)") { open(reading, O_RDONLY | O_CLOEXEC) }
        attempt("read /usr", mustWork: true) { open("/usr", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        attempt("socket AF_INET") { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        attempt("socket AF_UNIX") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        attempt("start /bin/true") {
            do throws(SystemError) {
                let pid = try Spawn.start(argv: ["/bin/true"], environment: [], input: .null, output: .null, errors: .null)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                // Started, but exec refused: the child exits 127.
                guard (status >> 8) & 0xFF != 127 else { errno = EPERM; return -1 }
                return Int32.max
            } catch {
                errno = error.errno
                return -1
            }
        }
        attempt("signal the parent (\(getppid()))") { kill(getppid(), 0) == 0 ? Int32.max : -1 }
        return (lines, contained)
    }

    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func readHeader() -> SVGWorkerMessage.Header? {
        readExactly(SVGWorkerMessage.headerSize).flatMap(SVGWorkerMessage.decodeHeader)
    }

    private static func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try? retryingInterrupts("read") { bytes.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress! + done, count - done) } }
            guard let n, n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    private static func writeAll(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = try? retryingInterrupts("write") { bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + done, $0.count - done) } }
            guard let n, n > 0 else { return false }
            done += n
        }
        return true
    }
}
