import Geometry
import KioskConfiguration
import Raster

/// How the stack of screens changed.
public enum ScreenChange: Sendable, Equatable {
    /// A screen was opened over the current one.
    case push
    /// The top screen (or several) was left.
    case pop
    /// The screen was replaced in place: a reload, a keypad giving way to the screen it guarded.
    case replace
}

/// A change of screen in motion, with time passed in: what it does, when it began, and how far
/// it is at any moment. Eased out (cubic): fast at first, so the first frames already answer
/// the finger, and settling gently.
public struct ScreenTransition: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The new screen comes in from the trailing edge, pushing the old one out.
        case push
        /// The screen below comes back from the leading edge.
        case pop
        case fade
    }

    public static let duration = 0.25

    public let kind: Kind
    public let start: Double
    public let duration: Double
    /// Slides go the other way on a right-to-left screen (its trailing edge is the left).
    public let reading: ReadingDirection

    public init(kind: Kind, start: Double, duration: Double = ScreenTransition.duration, reading: ReadingDirection = .leftToRight) {
        self.kind = kind
        self.start = start
        self.duration = duration
        self.reading = reading
    }

    /// The transition `style` gives `change`, or nil when the change is at once.
    public init?(_ change: ScreenChange, style: TransitionStyle, start: Double, reading: ReadingDirection) {
        let kind: Kind
        switch (style, change) {
        case (.none, _): return nil
        case (.fade, _), (.slide, .replace): kind = .fade
        case (.slide, .push): kind = .push
        case (.slide, .pop): kind = .pop
        }
        self.init(kind: kind, start: start, reading: reading)
    }

    /// The share of the duration gone by at `now`, 0...1.
    public func elapsed(at now: Double) -> Double {
        guard duration > 0, now.isFinite else { return 1 }
        return Swift.min(1, Swift.max(0, (now - start) / duration))
    }

    /// How far the picture has moved at `now`, 0...1: ease-out cubic of `elapsed`.
    public func progress(at now: Double) -> Double {
        let u = 1 - elapsed(at: now)
        return 1 - u * u * u
    }

    public func isFinished(at now: Double) -> Bool { elapsed(at: now) >= 1 }

    /// For a slide on a screen `width` pixels wide: where the incoming picture's left edge is at
    /// `now`; the outgoing one is beside it. A push comes from the trailing edge (the right, or the left on a right-to-left screen).
    public func incomingX(width: Int, at now: Double) -> Int {
        let remaining = Int((Double(width) * (1 - progress(at: now))).rounded())
        return fromRight ? remaining : -remaining
    }

    private var fromRight: Bool { (kind == .push) != (reading == .rightToLeft) }
}

/// The pictures a transition moves between, and a frame made of them: the screen left, drawn once
/// when a transition begins, and the screen shown, drawn again only when it changes. A slide is
/// about one copy of the frame; a fade mixes only where the two pictures differ. The two pictures
/// are kept from one transition to the next: allocating and faulting in two frames each time made
/// a push's first frame at 1920x1080 take 16–22 ms instead of about 4 (kiosk-bench `first`).
package final class TransitionFrames {
    private let outgoing: PixelBuffer
    private let incoming: PixelBuffer
    /// The screen `incoming` holds, to know when the top screen was replaced (a keypad's title).
    private weak var drawnScreen: MenuScreen?
    /// Where the pictures differ (a fade redraws only there); nil until a transition's first frame.
    private var differing: PixelRect?

    package init(width: Int, height: Int) throws(RasterError) {
        outgoing = try PixelBuffer(width: width, height: height)
        incoming = try PixelBuffer(width: width, height: height)
    }

    /// A transition begins from `leaving`: drawn into the outgoing picture.
    package func begin(leaving: MenuScreen) {
        _ = leaving.draw(on: Canvas(outgoing), full: true)
        drawnScreen = nil
        differing = nil
    }

    /// Draws `transition`'s frame at `now` with `screen` coming in; returns the damage. The first
    /// frame is whole: what was on screen before need not be either picture (a banner that went away).
    package func draw(_ transition: ScreenTransition, coming screen: MenuScreen, on canvas: Canvas, now: Double) -> PixelRect {
        let first = differing == nil
        let fades = transition.kind == .fade
        if drawnScreen !== screen {
            _ = screen.draw(on: Canvas(incoming), full: true)
            drawnScreen = screen
            differing = fades ? outgoing.differingBounds(from: incoming) : incoming.bounds
        } else if screen.needsFrame || screen.isMoving {
            differing = differing?.union(screen.draw(on: Canvas(incoming), full: false))
        }
        let bounds = canvas.target.bounds
        guard fades else {
            let x = transition.incomingX(width: bounds.width, at: now)
            if x >= 0 {
                canvas.target.showSideBySide(left: outgoing, right: incoming, seam: x)
            } else {
                canvas.target.showSideBySide(left: incoming, right: outgoing, seam: bounds.width + x)
            }
            return bounds
        }
        let amount = Int((transition.progress(at: now) * 256).rounded())
        if first { canvas.target.copyRows(from: incoming, rect: bounds) }
        canvas.target.crossFade(from: outgoing, to: incoming, amount: amount, in: differing ?? bounds)
        return first ? bounds : differing ?? bounds
    }
}
