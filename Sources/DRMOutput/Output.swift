import Geometry
import KioskSystem
import Raster

/// Where the runtime's frames go: the DRM scanout (`DisplaySession`), a desktop window
/// (`kiosk-preview`) or memory (`HeadlessOutput`). The runtime draws at the logical size and
/// hands frames over; the output says, through its delegate and from the event loop, when a
/// frame is on screen and when it needs a whole new one.
public protocol Output: AnyObject {
    /// The panel as touch devices see it: its size in pixels and how the logical screen is
    /// turned on it. The one owner of both; frames and touches are mapped through it.
    var panel: PanelGeometry { get }
    /// A frame may be handed over now (shown, and the last frame already on screen).
    var isReady: Bool { get }
    /// Hands `frame` over; only `damage` changed since the last frame. False: nothing was taken.
    /// Never calls the delegate from inside: completion is reported from the loop.
    func present(_ frame: PixelBuffer, damage: [PixelRect]) -> Bool
    /// When the last frame reached the screen (CLOCK_MONOTONIC seconds), for input-to-screen latency.
    var lastPresentedTime: Double? { get }
    /// Registers the output's descriptors with `loop`; events go to `delegate`.
    func attach(to loop: EventLoop, delegate: OutputDelegate) throws
    /// Gives the screen to another program (`exec`) until `takeBack()`.
    func handOver()
    func takeBack()
    /// Handles a signal meant for the output (a VT switch); false when it is not one.
    func handle(signal: Int32) -> Bool
    /// What is on screen, in panel orientation, in a buffer of the caller's own (it is encoded
    /// off the loop while the output goes on).
    func screenshot() throws -> PixelBuffer
    /// Puts back what the screen showed before the kiosk (exit).
    func restore()
    /// Names the output for logs and the status file ("Virtual-1 1024x768@60").
    var name: String { get }
    /// Frames presented and completed, and any still queued, for the statistics at exit.
    var statistics: String { get }
    /// False while the connector has no display (`kiosk_display_connected`); memory and window
    /// outputs are always connected.
    var isConnected: Bool { get }
    /// Turns the panel off (no frame is taken until it is on again) or on (a whole frame is
    /// asked for, shown at once). `[power]`'s blanking.
    func setPanel(on: Bool)
    /// False where the kiosk does not switch the panel (a desktop window): `[power]` is off there.
    var controlsPanelPower: Bool { get }
}

extension Output {
    public var isConnected: Bool { true }
    public func setPanel(on: Bool) {}
    public var controlsPanelPower: Bool { false }
    public var logicalWidth: Int { panel.logicalWidth }
    public var logicalHeight: Int { panel.logicalHeight }
}

/// What an output tells the runtime.
public protocol OutputDelegate: AnyObject {
    /// The frame presented last is on screen: the next may be presented.
    func outputPresented()
    /// The output shows nothing of ours (it came back, or changed size): draw everything.
    func outputNeedsFullFrame()
    /// The display was disconnected (a reconnection asks for a full frame instead).
    func outputConnectionChanged()
}

extension OutputDelegate {
    public func outputConnectionChanged() {}
}

/// A panel's size in pixels and the rotation of the logical screen on it.
public struct PanelGeometry: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var rotation: DisplayRotation

    public init(width: Int, height: Int, rotation: DisplayRotation) {
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    var size: Size { Size(width: Double(width), height: Double(height)) }
    public var logicalWidth: Int { Int(rotation.logicalSize(forPanel: size).width) }
    public var logicalHeight: Int { Int(rotation.logicalSize(forPanel: size).height) }

    /// The logical point under a touch at `fraction` of the panel's width and height (0...1 each,
    /// as touchscreens report absolute positions).
    public func logicalPoint(atPanelFraction fraction: Point) -> Point {
        rotation.panelToLogical(panel: size).apply(Point(x: fraction.x * Double(width), y: fraction.y * Double(height)))
    }
}
