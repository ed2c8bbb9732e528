import Geometry
import LayoutCore

/// What the menu on screen is asked to do.
public enum MenuInput: Hashable, Sendable {
    case gesture(Gesture)
    /// `count` items forward (`next`) or back (`previous`); 1 for `select` and `back`.
    case command(MenuCommand, count: Int)
}

/// Turns raw device events into menu input: touches go from panel fractions to logical
/// coordinates through the panel's geometry (owned by the output, passed in) and into the
/// gesture recognizer; wheels and dials go through the knob accumulator; keys and buttons
/// through the key mapping.
public struct InputRouter: Sendable {
    public var recognizer = TouchGestureRecognizer()
    public var knob: KnobAccumulator
    public var keys: KeyMapping

    public init(knob: KnobAccumulator = KnobAccumulator(), keys: KeyMapping = .standard) {
        self.knob = knob
        self.keys = keys
    }

    public mutating func route(_ event: RawInputEvent, panel: PanelGeometry) -> [MenuInput] {
        switch event {
        case .touchDown(let slot, let p, let t):
            return recognizer.handle(.down(slot: slot, at: panel.logicalPoint(atPanelFraction: p), time: t)).map { .gesture($0) }
        case .touchMotion(let slot, let p, let t):
            return recognizer.handle(.motion(slot: slot, at: panel.logicalPoint(atPanelFraction: p), time: t)).map { .gesture($0) }
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
