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
        confine()
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

    /// No new privileges, no core dump, a cap on data, few descriptors. (Not PR_SET_PDEATHSIG: it
    /// fires when the thread that started the worker ends, a config loader's; the worker ends
    /// when its socket does, which the kiosk's exit closes too.)
    static func confine() {
        _ = kiosk_prctl(PR_SET_NO_NEW_PRIVS, 1)
        _ = kiosk_setrlimit(kiosk_RLIMIT_CORE, 0)
        _ = kiosk_setrlimit(kiosk_RLIMIT_DATA, dataLimit)
        _ = kiosk_setrlimit(kiosk_RLIMIT_NOFILE, 64)
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
