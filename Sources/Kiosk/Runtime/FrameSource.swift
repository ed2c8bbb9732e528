import Geometry
import LayoutCore
import Raster

/// What the runtime drives: state that input and time change, and a picture of it.
///
/// One way only: `handle` and `advance` change state and return effects for the runtime to
/// carry out; `draw` only draws what `advance` left. The runtime calls them in that order, each
/// from the event loop, never one from inside another.
public protocol FrameSource: AnyObject {
    /// Input from the user, in the frame's (logical) coordinates.
    func handle(_ input: MenuInput, now: Double)
    /// Moves state on to `now` (animations settling, timeouts) and says what the runtime must do.
    func advance(now: Double) -> [Effect]
    /// Something changed that is not on screen yet.
    var needsFrame: Bool { get }
    /// Frames are wanted without further input (an animation runs).
    var isAnimating: Bool { get }
    /// When `advance` must run again even if nothing happens (nil: not before the next input).
    var nextDeadline: Double? { get }
    /// Draws the state as `advance` left it. `full`: everything, not just what changed. Returns the damage.
    func draw(on canvas: Canvas, full: Bool) -> [PixelRect]
    /// The frame size changed (another display was connected).
    func resize(width: Int, height: Int) throws
    /// How an effect ended (a program exited, failed to start, was refused).
    func effectFinished(_ effect: Effect, result: String, failed: Bool, now: Double)
    /// The current screen's scroll position in the last frame drawn (screenshots record it).
    var drawnPosition: ScrollOffset { get }
    /// Bumped whenever another screen is shown: partial knob motion belongs to the old one.
    var screenChanges: Int { get }
}

/// What a frame source asks the runtime to do: things that touch processes or the machine.
public enum Effect: Equatable, Sendable {
    /// Hand the display and input to `command` until it exits.
    case exec(Command, label: String)
    /// Start `command` in the background.
    case spawn(Command, label: String)
    /// Read the config file again.
    case reload
    case poweroff
    case reboot

    /// The label of the menu item that asked, or the action's name.
    public var label: String {
        switch self {
        case .exec(_, let label), .spawn(_, let label): return label
        case .reload: return "reload"
        case .poweroff: return "poweroff"
        case .reboot: return "reboot"
        }
    }

    /// Gives the display away (`exec`) or stops the device: not run by a desktop preview.
    public var handsOverDevice: Bool {
        switch self {
        case .exec, .poweroff, .reboot: return true
        case .spawn, .reload: return false
        }
    }

    /// The action's kind as the status file names it.
    public var kind: String {
        switch self {
        case .exec: return "exec"
        case .spawn: return "spawn"
        case .reload: return "reload"
        case .poweroff: return "poweroff"
        case .reboot: return "reboot"
        }
    }
}
