import Geometry
import KioskSystem
import Raster

/// An output without a display: frames go through the same rotated, damage-limited copy as
/// the scanout, into a panel-oriented buffer in memory. `kiosk render`, `kiosk demo
/// --headless-offset` and the runtime's tests take their pictures from it.
public final class HeadlessOutput: Output {
    public let pixels: PixelBuffer
    public let panel: PanelGeometry
    private let copier: ScanoutCopy
    /// Attached to a loop, a presented frame is "on screen" at the loop's next turn, like a flip.
    private var completion: WakeSource?
    private weak var delegate: OutputDelegate?
    private var completionQueued = false
    private var handedOver = false
    public private(set) var presentedFrames = 0
    public private(set) var lastPresentedTime: Double?

    /// A panel of `panelWidth` x `panelHeight` pixels; the layout sees it turned by `rotation`.
    public init(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation) throws(RasterError) {
        pixels = try PixelBuffer(width: panelWidth, height: panelHeight)
        panel = PanelGeometry(width: panelWidth, height: panelHeight, rotation: rotation)
        copier = ScanoutCopy(rotation: rotation, logicalWidth: panel.logicalWidth, logicalHeight: panel.logicalHeight)
    }

    public var isReady: Bool { !completionQueued && !handedOver && panelOn }
    /// False while `[power]` has the panel off; frames are not taken then.
    public private(set) var panelOn = true
    public var controlsPanelPower: Bool { true }

    public func setPanel(on: Bool) {
        guard on != panelOn else { return }
        panelOn = on
        if on { delegate?.outputNeedsFullFrame() }
    }
    public var name: String { "headless \(panel.width)x\(panel.height)" }
    public var statistics: String { "flips=\(presentedFrames - (completionQueued ? 1 : 0)) pending=\(completionQueued ? 1 : 0)" }
    /// True between `handOver()` and `takeBack()`.
    public var isHandedOver: Bool { handedOver }

    public func attach(to loop: EventLoop, delegate: OutputDelegate) throws {
        let wake = try WakeSource()
        self.delegate = delegate
        try loop.watch(wake.descriptor.rawValue) { [unowned self] in
            self.completion?.acknowledge()
            self.completionQueued = false
            self.lastPresentedTime = MonotonicClock.now()
            self.delegate?.outputPresented()
        }
        completion = wake
    }

    /// Copies the damaged parts of the logical frame `shadow` onto the panel.
    @discardableResult
    public func present(_ shadow: PixelBuffer, damage: [PixelRect]) -> Bool {
        guard isReady else { return false }
        pixels.withUnsafePixels { copier.copy(damage, from: shadow, to: $0, destinationStride: $1) }
        presentedFrames += 1
        if let completion {
            completionQueued = true
            completion.signal()
        }
        return true
    }

    public func handOver() { handedOver = true }

    public func takeBack() {
        guard handedOver else { return }
        handedOver = false
        delegate?.outputNeedsFullFrame()
    }

    public func handle(signal: Int32) -> Bool { false }
    public func screenshot() throws -> PixelBuffer { try pixels.copy() }
    public func restore() {}

    /// What the panel shows, as a PNG.
    public func writeScreenshot(to path: String) throws(RasterError) {
        try PNGCodec.write(pixels, to: path)
    }
}
