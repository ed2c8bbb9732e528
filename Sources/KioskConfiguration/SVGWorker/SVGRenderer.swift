import Glibc
import KioskSystem
import Raster

/// The kiosk's side of its SVG worker: the documents of one config load, parsed and rendered by
/// `kiosk svg-worker` (`SVGWorkerServer`) in a process of its own, so that librsvg never runs in
/// the kiosk's; the worker decodes the config's PNG images too (`decodePNG`). A worker that crashes, runs out of its memory or CPU time, or does not answer in
/// time is ended; the document it was working on is given up (every later render of it is nil,
/// never retried: an SVG that crashes the renderer once would again), and the next request
/// starts a new worker, which parses the other documents again from the bytes kept here.
/// Not thread-safe: one thread at a time (the loader's, then `IconRenderService`'s).
public final class SVGRenderer {
    /// The program that serves `svg-worker`: the running kiosk itself, or for another program of
    /// the package (kiosk-preview, the tests, the benchmarks) the `kiosk` beside it;
    /// `KIOSK_SVG_WORKER` names another. nil when there is none.
    public static let executable: String? = {
        if let named = getenv("KIOSK_SVG_WORKER").map({ String(cString: $0) }), !named.isEmpty { return named }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let own = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if own.hasSuffix("/kiosk") { return "/proc/self/exe" }  // also when the file was replaced since (an upgrade)
        let beside = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/kiosk"
        return access(beside, X_OK) == 0 ? beside : nil
    }()

    /// A render and what it cost: CPU seconds in the worker; `problem` when there is no image.
    public struct Render {
        public let image: PixelBuffer?
        public let cpuSeconds: Double
        public let problem: String?
    }

    private struct Document {
        let name: String
        let data: [UInt8]
        /// Why it is given up, once it is.
        var broken: String?
    }

    private var documents: [UInt32: Document] = [:]
    private var nextID: UInt32 = 1
    private var worker: SVGWorkerProcess?
    /// Longest wall time one request may take before its worker is ended. A load allows the
    /// worker's whole CPU limit and more (the machine may be busy); once the loop draws with the
    /// icons it is lowered (`IconRenderService.renderInBackground`): a render then is one icon at
    /// a new size, and one that takes long would keep the others waiting behind it.
    public var wallLimit: Double = 4 * SVGWorkerServer.requestCPULimit
    /// `wallLimit` once the loop draws with a config's icons: a render of a new size is one icon
    /// at a time, a few milliseconds when all is well and up to 0.6 s for a large Adwaita icon
    /// under qemu's TCG; one that takes longer is given up.
    public static let loopWallLimit = 2.0
    /// Workers ended so far, for messages and tests.
    public private(set) var workersEnded = 0
    /// Workers started so far, for tests.
    public private(set) var workersStarted = 0

    public init() {}

    /// Starts the worker now if none runs, without waiting for it: its process starts up (loads
    /// its libraries) beside what the caller does next, instead of on the first request's clock,
    /// which at boot on a slow board is most of a second. A start that fails is tried again, and
    /// reported, by the first request.
    public func start() {
        _ = runningWorker(loading: nil)
    }

    /// Parses `data` in the worker as a new document named `name`; its id, or why not.
    public func load(_ data: [UInt8], name: String) -> Result<(id: UInt32, cpuSeconds: Double), RasterError> {
        let id = nextID
        nextID += 1
        documents[id] = Document(name: name, data: data)
        let outcome = runningWorker(loading: nil).flatMap { worker in
            send(.load(id: id, name: name, data: data), to: worker)
        }
        switch outcome {
        case .success(.loaded(_, _, let cpu)):
            worker?.loaded.insert(id)
            return .success((id, cpu))
        case .success(.refused(let message, _)):
            documents[id] = nil
            return .failure(.svgWorker(message))
        case .success:
            documents[id] = nil
            retire()
            return .failure(.svg(call: "SVGDocument(\(name))", message: "the SVG renderer answered out of turn"))
        case .failure(let failure):
            documents[id] = nil
            return .failure(.svg(call: "SVGDocument(\(name))", message: failure.description))
        }
    }

    /// Document `id` fitted into a `side` x `side` square.
    public func render(_ id: UInt32, side: Int) -> Render {
        guard let document = documents[id] else { return Render(image: nil, cpuSeconds: 0, problem: "no such SVG document") }
        if let broken = document.broken { return Render(image: nil, cpuSeconds: 0, problem: broken) }
        guard side > 0, side <= SVGDocument.maximumDimension else {
            return Render(image: nil, cpuSeconds: 0, problem: "size \(side) outside 1...\(SVGDocument.maximumDimension)")
        }
        let outcome = runningWorker(loading: id).flatMap { worker in send(.render(id: id, side: UInt32(side)), to: worker) }
        switch outcome {
        case .success(.rendered(let got, let pixels, let cpu)):
            guard Int(got) == side, let image = SVGWorkerMessage.image(side: side, bytes: pixels) else {
                return Render(image: nil, cpuSeconds: cpu, problem: "the SVG renderer answered with another size")
            }
            return Render(image: image, cpuSeconds: cpu, problem: nil)
        case .success(.refused(let message, let cpu)):
            return Render(image: nil, cpuSeconds: cpu, problem: message)
        case .success:
            retire()
            return give(up: id, because: "the SVG renderer answered out of turn")
        case .failure(let failure):
            return give(up: id, because: failure.description)
        }
    }

    /// `data` (a PNG file's bytes, at most `PNGCodec.maximumFileBytes`) decoded in the
    /// worker within `PNGCodec`'s limits; `name` for messages. A worker that crashes or times out
    /// on it is ended, and the next request starts another.
    public func decodePNG(_ data: [UInt8], name: String) -> Result<PixelBuffer, RasterError> {
        guard data.count <= PNGCodec.maximumFileBytes else {
            return .failure(.png(call: "PNG(\(name))", message: "\(data.count) bytes is more than the \(PNGCodec.maximumFileBytes) a PNG image may have"))
        }
        let outcome = runningWorker(loading: nil).flatMap { worker in send(.decodePNG(name: name, data: data), to: worker) }
        switch outcome {
        case .success(.decoded(let width, let height, let pixels, _)):
            guard let image = SVGWorkerMessage.image(width: Int(width), height: Int(height), bytes: pixels) else {
                return .failure(.png(call: "PNG(\(name))", message: "the image worker answered with a broken image"))
            }
            return .success(image)
        case .success(.refused(let message, _)):
            return .failure(.png(call: "decoding \(name)", message: message))
        case .success:
            retire()
            return .failure(.png(call: "PNG(\(name))", message: "the image worker answered out of turn"))
        case .failure(let failure):
            return .failure(.png(call: "decoding \(name)", message: failure.description))
        }
    }

    /// The worker, started if none runs, with document `id` parsed in it.
    private func runningWorker(loading id: UInt32?) -> Result<SVGWorkerProcess, SVGWorkerProcess.Failure> {
        if worker == nil {
            guard let executable = Self.executable else {
                return .failure(.init(description: "no SVG renderer: the kiosk program was not found (KIOSK_SVG_WORKER)"))
            }
            do {
                worker = try SVGWorkerProcess(executable: executable)
                workersStarted += 1
            } catch {
                return .failure(.init(description: "the SVG renderer could not start: \(error)"))
            }
        }
        let running = worker!
        guard let id, !running.loaded.contains(id), let document = documents[id] else { return .success(running) }
        switch send(.load(id: id, name: document.name, data: document.data), to: running) {
        case .success(.loaded):
            running.loaded.insert(id)
            return .success(running)
        case .success(.refused(let message, _)):
            return .failure(.init(description: message))
        case .success:
            retire()
            return .failure(.init(description: "the SVG renderer answered out of turn"))
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// One exchange with `worker`; a failed one retires it (it is ended already).
    private func send(_ request: SVGWorkerMessage.Request, to worker: SVGWorkerProcess) -> Result<SVGWorkerMessage.Reply, SVGWorkerProcess.Failure> {
        let result = worker.exchange(SVGWorkerMessage.encode(request), seconds: wallLimit)
        if case .failure = result { retire() }
        return result
    }

    private func retire() {
        worker?.stop()
        worker = nil
        workersEnded += 1
    }

    private func give(up id: UInt32, because problem: String) -> Render {
        documents[id]?.broken = problem
        if let name = documents[id]?.name { Log.warning("SVG icon \(name) given up: \(problem)") }
        return Render(image: nil, cpuSeconds: 0, problem: problem)
    }
}
