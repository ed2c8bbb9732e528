import Geometry
import LayoutCore

/// What the menu on screen is asked to do.
public enum MenuInput: Hashable, Sendable {
    case gesture(Gesture)
    /// `count` items forward (`next`) or back (`previous`); 1 for `select` and `back`.
    case command(MenuCommand, count: Int)
}

/// Turns raw device events into menu input: touches go from panel to logical coordinates
/// through the display rotation and into the gesture recognizer; wheels and dials go through
/// the knob accumulator; keys and buttons through the key mapping.
public struct InputRouter: Sendable {
    public var recognizer = TouchGestureRecognizer()
    public var knob: KnobAccumulator
    public var keys: KeyMapping
    private var panelToLogical: AffineTransform

    public init(rotation: DisplayRotation, panelWidth: Double, panelHeight: Double,
                knob: KnobAccumulator = KnobAccumulator(), keys: KeyMapping = .standard) {
        self.knob = knob
        self.keys = keys
        panelToLogical = rotation.panelToLogical(panel: Size(width: panelWidth, height: panelHeight))
    }

    /// The display changed size or rotation.
    public mutating func setPanel(rotation: DisplayRotation, width: Double, height: Double) {
        panelToLogical = rotation.panelToLogical(panel: Size(width: width, height: height))
    }

    public mutating func route(_ event: RawInputEvent) -> [MenuInput] {
        switch event {
        case .touchDown(let slot, let p, let t):
            return recognizer.handle(.down(slot: slot, at: panelToLogical.apply(p), time: t)).map { .gesture($0) }
        case .touchMotion(let slot, let p, let t):
            return recognizer.handle(.motion(slot: slot, at: panelToLogical.apply(p), time: t)).map { .gesture($0) }
        case .touchUp(let slot, let t):
            return recognizer.handle(.up(slot: slot, time: t)).map { .gesture($0) }
        case .touchCancel(let t):
            return recognizer.handle(.cancel(time: t)).map { .gesture($0) }
        case .wheel(let v120, _):
            return moves(knob.add(v120: v120))
        case .dial(let steps, _):
            return moves(knob.add(detents: steps))
        case .key(let code, let pressed, _):
            guard pressed, let command = keys.command(for: code) else { return [] }
            switch command {
            case .next: return moves(knob.add(detents: 1))
            case .previous: return moves(knob.add(detents: -1))
            case .select, .back: return [.command(command, count: 1)]
            }
        }
    }

    private func moves(_ items: Int) -> [MenuInput] {
        if items > 0 { return [.command(.next, count: items)] }
        if items < 0 { return [.command(.previous, count: -items)] }
        return []
    }
}
