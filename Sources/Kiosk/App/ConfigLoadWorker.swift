import Glibc
import KioskConfiguration
import KioskSystem
import Synchronization

/// Loads one config file again and again on a thread of its own, so that the event loop never
/// waits for a reload: reading, parsing and validating the file, loading the font, decoding the
/// images (`LoadedConfig.load`) and rasterizing the SVG icons at the output's size (`IconWarmUp`)
/// all happen there, while the loop goes on drawing, reading input and pinging the watchdog. The loop learns of a finished load through a descriptor it watches
/// (an eventfd) and gets the result on its own thread.
///
/// Superseding: each `request()` takes the next number; only a result for the newest number is
/// ever delivered. A load whose number is no longer the newest stops before its next image and is
/// thrown away, and the thread starts on the newest. At most one load runs at a time.
///
/// Usable by any owner of an `EventLoop`: `attach(to:_:)` once, then `request()` whenever the
/// file may have changed.
public final class ConfigLoadWorker {
    private let shared: WorkerShared

    /// Starts the thread, which sleeps until the first `request()`. Every signal is blocked in it,
    /// so that signals keep going to the loop's signalfd.
    /// `iconBudget`: seconds a load may spend rasterizing icons (`IconWarmUp`, the home screen's
    /// first) before it hands its result over; what is left is rasterized when first drawn.
    public init(path: String, displayName: String? = nil, searchPath: String? = nil,
                iconBudget: Double = ConfigLoadWorker.iconBudget) throws(SystemError) {
        shared = try WorkerShared()
        let job = WorkerThread(shared: shared, checker: ConfigReader(path: path, displayName: displayName, searchPath: searchPath),
                               iconBudget: iconBudget)
        try job.start()
    }

    /// A reload's icon rasterizing is bounded so that a replaced config still shows within its
    /// usual time on a slow machine: 50 ms covers about 35 SVG icons at 800x480 on the build host.
    public static let iconBudget = 0.05

    /// The thread ends after the load it is running, if any, without being waited for; a result
    /// it finishes is never delivered.
    deinit { shared.stop() }

    /// Watches the completion descriptor on `loop`; `deliver` runs on the loop's thread with each
    /// result that answers the newest request.
    public func attach(to loop: EventLoop, _ deliver: @escaping (LoadedConfig) -> Void) throws(SystemError) {
        try loop.watch(shared.resultReady.descriptor.rawValue) { [unowned self] in
            if let result = self.takeResult() { deliver(result) }
        }
    }

    /// Readable when a result may be waiting (`takeResult()` clears it): for an owner that waits
    /// on it itself; `attach(to:_:)` watches it on an `EventLoop`.
    public var completionDescriptor: Int32 { shared.resultReady.descriptor.rawValue }

    /// Asks for the file to be loaded again, superseding any request not yet delivered (a result
    /// finished for it and not yet taken is dropped now, so that at most one config's assets wait
    /// besides the running one's). `outputSize`: the size the screens will be drawn at, where
    /// the load rasterizes the icons (nil: they are rasterized when first drawn). Returns the
    /// request's number (numbers grow from 1).
    @discardableResult
    public func request(outputSize: (width: Int, height: Int)? = nil) -> UInt64 {
        let number = shared.state.withLock { state in
            state.requested += 1
            state.outputSize = outputSize
            state.finished = nil
            return state.requested
        }
        shared.wakeWorker.signal()
        return number
    }

    /// True from a request until the result for the newest request has been delivered.
    public var isLoading: Bool { shared.state.withLock { $0.delivered != $0.requested } }

    /// The finished result of the newest request, if there is one. Clears the completion
    /// descriptor's readiness. `attach` calls it when the descriptor is readable.
    public func takeResult() -> LoadedConfig? {
        shared.resultReady.acknowledge()
        let handover = shared.state.withLock { state -> ResultHandover? in
            guard let finished = state.finished else { return nil }
            state.finished = nil
            state.delivered = finished.result.request
            return finished
        }
        return handover?.result
    }
}

/// A finished load on its way from the worker thread to the loop's thread.
///
/// `@unchecked Sendable`: `LoadedConfig` holds a `Font` and `PixelBuffer`s, which are not
/// thread-safe. They are made on the worker thread, which keeps no reference once it has stored
/// the handover under the lock; from then on only the thread that takes it out uses them.
private final class ResultHandover: @unchecked Sendable {
    let result: LoadedConfig
    init(_ result: LoadedConfig) { self.result = result }
}

/// What the owner and the worker thread share: the request numbers and the finished result behind
/// one lock, and two eventfds (the worker sleeps on one, the loop watches the other), closed
/// when both sides are gone.
private final class WorkerShared: Sendable {
    struct State {
        /// The newest request's number.
        var requested: UInt64 = 0
        /// The request the thread last started on.
        var started: UInt64 = 0
        /// The newest request whose result the loop has taken.
        var delivered: UInt64 = 0
        /// Only ever the newest request's result: the thread stores one only while its request is
        /// the newest, and `request()` drops it when a newer one comes.
        var finished: ResultHandover?
        /// The newest request's output size, if it has one.
        var outputSize: (width: Int, height: Int)?
        var stopping = false
    }

    let state = Mutex(State())
    /// Blocking: the worker thread sleeps acknowledging it.
    let wakeWorker: WakeSource
    /// Non-blocking: the event loop watches it.
    let resultReady: WakeSource

    init() throws(SystemError) {
        wakeWorker = try WakeSource(blocking: true)
        resultReady = try WakeSource()
    }

    func stop() {
        state.withLock { $0.stopping = true }
        wakeWorker.signal()
    }

    /// True when `request` is no longer worth finishing.
    func isSuperseded(_ request: UInt64) -> Bool {
        state.withLock { $0.stopping || $0.requested != request }
    }
}

/// The worker thread's side: its own `ConfigReader` (whose parse cache only this thread touches).
///
/// `@unchecked Sendable`: it is handed to the new thread once, at `pthread_create`, and only that
/// thread uses the checker afterwards; `shared` is Sendable.
private final class WorkerThread: @unchecked Sendable {
    let shared: WorkerShared
    let checker: ConfigReader

    let iconBudget: Double

    init(shared: WorkerShared, checker: ConfigReader, iconBudget: Double) {
        self.shared = shared
        self.checker = checker
        self.iconBudget = iconBudget
    }

    /// Creates the thread (signals blocked, detached: `startDetachedThread`).
    func start() throws(SystemError) {
        try startDetachedThread { self.run() }
    }

    private func run() {
        while waitForWork() {
            while let (request, size) = nextRequest() {
                let result = LoadedConfig.load(using: checker, request: request) { shared.isSuperseded(request) }
                if let config = result.check.config, let assets = result.assets, let size {
                    let deadline = MonotonicClock.now() + iconBudget
                    IconWarmUp.run(config, assets: assets, width: size.width, height: size.height) {
                        shared.isSuperseded(request) || MonotonicClock.now() > deadline
                    }
                }
                let handover = ResultHandover(result)
                let publish = shared.state.withLock { state in
                    guard !state.stopping, state.requested == request else { return false }
                    state.finished = handover
                    return true
                }
                if publish { shared.resultReady.signal() }
            }
        }
    }

    /// Sleeps until woken; false when the owner is gone.
    private func waitForWork() -> Bool {
        shared.wakeWorker.acknowledge()
        return !shared.state.withLock { $0.stopping }
    }

    /// The newest request and its output size if the thread has not started on it yet.
    private func nextRequest() -> (UInt64, (width: Int, height: Int)?)? {
        shared.state.withLock { state -> (UInt64, (width: Int, height: Int)?)? in
            guard !state.stopping, state.requested > state.started else { return nil }
            state.started = state.requested
            return (state.requested, state.outputSize)
        }
    }
}
