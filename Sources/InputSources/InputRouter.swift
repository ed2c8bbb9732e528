import DRMOutput
import Geometry
import KioskConfiguration
import LayoutCore

/// Turns raw device events into menu input: touches go from panel fractions to logical
/// coordinates through the panel's geometry (owned by the output, passed in) and into the
/// gesture recognizer; wheels and dials go through the knob accumulator; keys and buttons
/// through the key mapping, except while Ctrl and Alt are both held or SysRq is: those are the
/// console's and the kernel's chords (Ctrl+Alt+Fn switches terminals, Ctrl+Alt+Del reboots,
/// Alt+SysRq+B resets), never menu keys.
public struct InputRouter: Sendable {
    public var recognizer = TouchGestureRecognizer()
    public var knob: KnobAccumulator
    public var keys: KeyMapping
    /// Ctrl, Alt and SysRq keys down now, by code.
    private var heldModifiers: Set<UInt32> = []

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
            if Self.consoleModifiers.contains(code) {
                if pressed { heldModifiers.insert(code) } else { heldModifiers.remove(code) }
            }
            guard pressed, !consoleChordHeld, let command = keys.command(for: code) else { return [] }
            switch command {
            case .next: return moves(knob.add(detents: 1))
            case .previous: return moves(knob.add(detents: -1))
            case .select, .back: return [.command(command, count: 1)]
            }
        }
    }

    static let consoleModifiers: Set<UInt32> = [KeyCode.leftControl, KeyCode.rightControl, KeyCode.leftAlt, KeyCode.rightAlt, KeyCode.sysRq]

    private var consoleChordHeld: Bool {
        heldModifiers.contains(KeyCode.sysRq)
            || (heldModifiers.contains(KeyCode.leftControl) || heldModifiers.contains(KeyCode.rightControl))
            && (heldModifiers.contains(KeyCode.leftAlt) || heldModifiers.contains(KeyCode.rightAlt))
    }

    private func moves(_ items: Int) -> [MenuInput] {
        if items > 0 { return [.command(.next, count: items)] }
        if items < 0 { return [.command(.previous, count: -items)] }
        return []
    }
}
