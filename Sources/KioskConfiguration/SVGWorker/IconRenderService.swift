import KioskSystem
import Raster
import Synchronization

/// Where one config load's SVG icons are rendered, and on which thread. Until the event loop takes
/// the config (`renderInBackground`), a render runs on the caller's thread and returns its image:
/// the loader's warm-up (`IconWarmUp`), `kiosk render`, `check-config` and the tests. From then on
/// a render the loop asks for is queued for a thread of the service's own and the loop gets nil
/// at once (the item is drawn without its icon); when the render is done the icon keeps it and
/// the loop is woken (`arrivals`) to draw again. So a render never holds the loop, whatever its
/// size (the side panel's, a new panel size after a hotplug, the rest of a reload whose warm-up
/// ran out of its budget).
///
/// The renderer (`SVGRenderer`, one worker process) has one user at a time: the caller's thread
/// before `renderInBackground`, the service's thread after. `@unchecked Sendable`: the renderer
/// is handed over once, and everything else the threads share is behind a lock (the background
/// thread's part, its queue) or atomic (the count of icons drawn without their image).
public final class IconRenderService: @unchecked Sendable {
    /// A render the loop asked for. `@unchecked Sendable`: the icon is only touched through its
    /// own lock (`VectorIcon.store`).
    fileprivate struct Job: @unchecked Sendable {
        let icon: VectorIcon
        let document: UInt32
        let side: Int
        let tint: VectorIcon.Tint
    }

    fileprivate struct State {
        var jobs: [Job] = []
        /// Jobs queued or being rendered.
        var pending = 0
        var stopping = false
    }

    /// The part the background thread holds, so that the service's owner going away (a reload
    /// replaced the config) stops the thread.
    fileprivate final class Background: @unchecked Sendable {
        let renderer: SVGRenderer
        let state = Mutex(State())
        let wake: WakeSource
        let arrivals: WakeSource

        init(renderer: SVGRenderer, arrivals: WakeSource) throws(SystemError) {
            self.renderer = renderer
            self.arrivals = arrivals
            wake = try WakeSource(blocking: true)
        }

        /// Renders queued jobs until stopped; sleeps on `wake` between them.
        func run() {
            while true {
                while let job = next() {
                    let image = VectorIcon.tinted(renderer.render(job.document, side: job.side).image, job.tint)
                    job.icon.store(side: job.side, tint: job.tint, image: image)
                    state.withLock { $0.pending -= 1 }
                    arrivals.signal()
                }
                if state.withLock({ $0.stopping }) { return }
                wake.acknowledge()
            }
        }

        private func next() -> Job? {
            state.withLock { state -> Job? in
                guard !state.stopping, !state.jobs.isEmpty else { return nil }
                return state.jobs.removeFirst()
            }
        }

        func stop() {
            state.withLock { state in
                state.stopping = true
                state.pending -= state.jobs.count
                state.jobs.removeAll()
            }
            wake.signal()
        }
    }

    /// The caller's renderer until `renderInBackground`.
    private let renderer: SVGRenderer
    private let background = Mutex<Background?>(nil)
    /// Icons asked for and not drawn because their render had not arrived.
    private let missing = Atomic<Int>(0)

    public init(renderer: SVGRenderer) {
        self.renderer = renderer
    }

    deinit { background.withLock { $0?.stop() } }

    /// From now on renders are queued for a thread of this service's own, which signals
    /// `arrivals` after each one it finishes. The renderer is that thread's from here: whoever
    /// rendered through the service before (a loader's warm-up) must have finished. Called by the
    /// event loop's owner when it takes the config; a second call changes nothing.
    public func renderInBackground(arrivals: WakeSource) throws(SystemError) {
        if background.withLock({ $0 != nil }) { return }
        // What is rendered from now on is one icon at a time for the loop: a slow one is given up
        // sooner than at load, where the worker's whole CPU limit is allowed.
        renderer.wallLimit = SVGRenderer.loopWallLimit
        let made = try Background(renderer: renderer, arrivals: arrivals)
        try startDetachedThread { made.run() }
        background.withLock { $0 = made }
    }

    /// Renders queued or being rendered in the background (0 before `renderInBackground`).
    public var pending: Int { background.withLock { $0?.state.withLock { $0.pending } ?? 0 } }

    /// Times an icon was drawn without its image because the render had not arrived yet: a frame
    /// drawn while this moved lacks an icon.
    public var iconsNotYetDrawn: Int { missing.load(ordering: .relaxed) }

    /// An icon was asked for while its render was queued or being made.
    func notYetRendered() { missing.add(1, ordering: .relaxed) }

    /// Renders in the background: true when the render was queued (`icon.store` follows), false
    /// when the caller must render now (`renderNow`).
    func enqueue(_ icon: VectorIcon, document: UInt32, side: Int, tint: VectorIcon.Tint) -> Bool {
        guard let running = background.withLock({ $0 }) else { return false }
        running.state.withLock { state in
            state.jobs.append(Job(icon: icon, document: document, side: side, tint: tint))
            state.pending += 1
        }
        running.wake.signal()
        return true
    }

    /// A render on the caller's thread, before the loop took the config.
    func renderNow(_ document: UInt32, side: Int) -> PixelBuffer? {
        renderer.render(document, side: side).image
    }
}
