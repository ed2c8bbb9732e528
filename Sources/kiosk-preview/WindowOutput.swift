import CSDL2
import DRMOutput
import Geometry
import InputSources
import Kiosk
import KioskSystem
import Raster

/// A desktop window as the kiosk's panel (SDL2 on X11 or Wayland): the one owner of the
/// window, its renderer and the panel-sized texture. Frames go through the same rotated,
/// damage-limited copy as the scanout (`ScanoutCopy`) into the panel image, whose damaged
/// rectangles are uploaded to the texture and shown.
///
/// Nothing is polled: the event loop watches the display connection's descriptor, and events
/// are drained when it is readable and after every present (the display library may read
/// events into its own queue while the frame is sent; they would sit unread while the loop
/// sleeps). A presented frame counts as on screen at the next tick of a refresh-rate grid, from
/// a timer, as a flip completes at the next vblank: animations are paced at the display's rate
/// (drawing time included, not added) without blocking on vsync.
final class WindowOutput: Output {
    let panel: PanelGeometry
    /// Frames a second of the display the window is on (60 when it does not say).
    let refreshRate: Int
    /// Receives the window's mouse, wheel and keys as device events.
    var onInput: (RawInputEvent) -> Void = { _ in }
    /// The window was closed.
    var onClose: () -> Void = {}
    private(set) var lastPresentedTime: Double?

    private let video: SDLVideo
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    /// What the panel shows, in panel orientation: the texture is updated from it.
    private let pixels: PixelBuffer
    private let copier: ScanoutCopy
    /// The display connection (X11 or Wayland socket), readable when events arrive.
    private let connection: Int32
    /// Fires at the refresh tick that puts the frame last presented "on screen".
    private let refreshTimer: TimerSource
    /// The refresh grid: ticks at `firstTick + n / refreshRate` (the first present's time).
    private var firstTick: Double?
    /// Drains events at the loop's next turn after a present (never from inside it).
    private let drainAfterPresent: WakeSource
    private var input = WindowInput()
    private weak var delegate: OutputDelegate?
    private var framePending = false
    private var handedOver = false
    private var presentedFrames = 0

    /// Opens a window of `panelWidth` x `panelHeight` pixels titled `title`; the layout sees it turned by `rotation`.
    init(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation, title: String) throws {
        video = try SDLVideo()
        panel = PanelGeometry(width: panelWidth, height: panelHeight, rotation: rotation)
        copier = ScanoutCopy(rotation: rotation, logicalWidth: panel.logicalWidth, logicalHeight: panel.logicalHeight)
        pixels = try PixelBuffer(width: panelWidth, height: panelHeight)
        refreshTimer = try TimerSource()
        drainAfterPresent = try WakeSource()
        let undefined = Int32(bitPattern: SDL_WINDOWPOS_UNDEFINED_MASK)
        guard let window = SDL_CreateWindow(title, undefined, undefined, Int32(panelWidth), Int32(panelHeight), SDL_WINDOW_SHOWN.rawValue) else {
            throw SDLError.last("SDL_CreateWindow")
        }
        guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
            let error = SDLError.last("SDL_CreateRenderer")
            SDL_DestroyWindow(window)
            throw error
        }
        guard let texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(panelWidth), Int32(panelHeight)) else {
            let error = SDLError.last("SDL_CreateTexture")
            SDL_DestroyRenderer(renderer)
            SDL_DestroyWindow(window)
            throw error
        }
        self.window = window
        self.renderer = renderer
        self.texture = texture
        connection = kiosk_sdl_connection_fd(window)
        var mode = SDL_DisplayMode()
        let display = SDL_GetWindowDisplayIndex(window)
        refreshRate = display >= 0 && SDL_GetCurrentDisplayMode(display, &mode) == 0 && mode.refresh_rate > 0 ? Int(mode.refresh_rate) : 60
        // Keys are keys here, not text: no input method.
        SDL_StopTextInput()
        guard connection >= 0 else {
            throw SDLError(call: "SDL_GetWindowWMInfo", message: "the \(video.driver) video driver has no connection to wait on (use X11 or Wayland)")
        }
    }

    deinit {
        SDL_DestroyTexture(texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    var isReady: Bool { !framePending && !handedOver }
    var name: String { "window \(panel.width)x\(panel.height)@\(refreshRate) (\(video.driver), \(rendererName))" }
    var statistics: String { "frames=\(presentedFrames) pending=\(framePending ? 1 : 0)" }

    /// The SDL renderer drawing the window ("software", "opengl").
    var rendererName: String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name else { return "unknown" }
        return String(cString: name)
    }

    func attach(to loop: EventLoop, delegate: OutputDelegate) throws {
        self.delegate = delegate
        try loop.watch(connection) { [unowned self] in self.drainEvents() }
        try loop.watch(drainAfterPresent.descriptor.rawValue) { [unowned self] in
            self.drainAfterPresent.acknowledge()
            self.drainEvents()
        }
        try loop.watch(refreshTimer.descriptor.rawValue) { [unowned self] in
            self.refreshTimer.acknowledge()
            self.framePending = false
            self.delegate?.outputPresented()
        }
        // Making the window may already have read events (the first expose) into SDL's queue.
        drainAfterPresent.signal()
    }

    @discardableResult
    func present(_ frame: PixelBuffer, damage: [PixelRect]) -> Bool {
        guard isReady else { return false }
        pixels.withUnsafePixels { dst, dstStride in
            copier.copy(damage, from: frame, to: dst, destinationStride: dstStride) { p in
                var rect = SDL_Rect(x: Int32(p.x), y: Int32(p.y), w: Int32(p.width), h: Int32(p.height))
                logFailure("SDL_UpdateTexture", SDL_UpdateTexture(texture, &rect, dst + p.y * dstStride + p.x * 4, Int32(dstStride)))
            }
        }
        show()
        let now = MonotonicClock.now()
        lastPresentedTime = now
        presentedFrames += 1
        framePending = true
        refreshTimer.arm(after: nextTick(after: now) - now)
        drainAfterPresent.signal()
        return true
    }

    /// The first refresh tick after `now`: the frame just sent is shown at that tick, as a flip
    /// completes at the next vblank.
    private func nextTick(after now: Double) -> Double {
        let period = 1 / Double(refreshRate)
        guard let first = firstTick else {
            firstTick = now
            return now + period
        }
        let ticks = ((now - first) / period).rounded(.down) + 1
        return first + ticks * period
    }

    /// Draws the texture over the whole window and shows it (also after an expose or a resize,
    /// without the runtime: the texture holds the frame).
    private func show() {
        logFailure("SDL_RenderCopy", SDL_RenderCopy(renderer, texture, nil, nil))
        SDL_RenderPresent(renderer)
    }

    private func logFailure(_ call: String, _ result: Int32) {
        if result != 0 { Log.error(SDLError.last(call).description) }
    }

    /// Reads what the display server sent and hands out every queued event.
    private func drainEvents() {
        SDL_PumpEvents()
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            handle(event)
        }
    }

    private func handle(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            onClose()
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_SIZE_CHANGED: show()
            case SDL_WINDOWEVENT_CLOSE: onClose()
            default: break
            }
        default:
            var width: Int32 = 0, height: Int32 = 0
            SDL_GetWindowSize(window, &width, &height)
            if let raw = input.translate(event, width: width, height: height, now: MonotonicClock.now()) { onInput(raw) }
        }
    }

    /// The program started by an `exec` item opens its own window; this one keeps its last frame.
    func handOver() { handedOver = true }

    func takeBack() {
        guard handedOver else { return }
        handedOver = false
        delegate?.outputNeedsFullFrame()
    }

    func handle(signal: Int32) -> Bool { false }
    func screenshot() throws -> PixelBuffer { try pixels.copy() }
    func restore() {}
}
