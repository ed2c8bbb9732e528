import Geometry
import KioskConfiguration
import LayoutCore
import Raster

/// What the runtime drives: state that input and time change, and a picture of it.
///
/// One way only: `handle` and `advance` change state and `advance` returns effects for the
/// runtime to carry out; `draw` only draws what `advance` left. The runtime calls them in that
/// order, each from the event loop, never one from inside another; it tells the source when the
/// output took a frame (`frameTaken`) and when the panel's size changed (`resize`, before a pass
/// draws).
public protocol FrameSource: AnyObject {
    /// Input from the user, in the frame's (logical) coordinates.
    func handle(_ input: MenuInput, now: Double)
    /// Moves state on to `now` (animations settling, timeouts) and says what the runtime must do.
    func advance(now: Double) -> [Effect]
    /// How much of the picture is out of date.
    var frameNeed: FrameNeed { get }
    /// Frames are wanted without further input (an animation runs).
    var isAnimating: Bool { get }
    /// When `advance` must run again even if nothing happens (nil: not before the next input).
    var nextDeadline: Double? { get }
    /// Draws the state as `advance` left it. `full`: everything, not just what changed. Returns the damage.
    func draw(on canvas: Canvas, full: Bool) -> [PixelRect]
    /// The output took the frame just drawn: nothing is out of date any more.
    func frameTaken()
    /// The frame size changed (another display was connected).
    func resize(width: Int, height: Int) throws
    /// How an action ended (a program exited, failed to start, was refused).
    func effectFinished(_ action: ActionRequest, result: String, failed: Bool, now: Double)
    /// The current screen's scroll position: what a frame drawn now shows (screenshots record it).
    var position: ScrollOffset { get }
    /// The frame just drawn holds placeholders for icons still being rendered off the loop.
    var lastFrameLacksIcons: Bool { get }
}

/// How much of a picture is out of date: nothing, the part that moves, or all of it.
public enum FrameNeed: Int, Comparable, Sendable {
    case none, changed, full

    public static func < (a: FrameNeed, b: FrameNeed) -> Bool { a.rawValue < b.rawValue }

    /// At least `need` is out of date now.
    public mutating func raise(to need: FrameNeed) { self = max(self, need) }
}

/// What a frame source asks of the runtime.
public enum Effect: Equatable, Sendable {
    /// Carry out a menu item's action on processes or the machine.
    case run(ActionRequest)
    /// Another screen came to the top: half a knob detent turned on the old one is dropped.
    case screenChanged
    /// A config was applied: the runtime's own owners (input, power, files) take their part.
    case settingsChanged(RuntimeSettings)
    /// Run a toggle's `on` or `off` command; its end goes back through `toggleSwitched`.
    case switchToggle(id: String, command: Command, label: String)
    /// Say `text` (`[speech]`), cutting off what is being said.
    case speak(String)
    /// Silence what is being said: the menu moved.
    case silence
    /// Something the control API's subscribers follow (`KioskControl.publish`).
    case event(ControlEvent)
}

/// The part of a config the runtime's owners use: input, panel power, and where files go.
public struct RuntimeSettings: Equatable, Sendable {
    public var input: InputConfig
    public var power: PowerConfig
    public var statusFile: String
    public var metricsFile: String?
    public var screenshotFile: String
    public var speech: SpeechConfig

    public init(_ config: KioskConfig) {
        input = config.input
        power = config.power
        statusFile = config.statusFile
        speech = config.speech
        metricsFile = config.metricsFile
        screenshotFile = config.screenshotFile
    }
}

/// A menu item's action that touches processes or the machine.
public enum ActionRequest: Equatable, Sendable {
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
        case .reload, .poweroff, .reboot: return kind.rawValue
        }
    }

    /// Gives the display away (`exec`) or stops the device: not run by a desktop preview.
    public var handsOverDevice: Bool {
        switch self {
        case .exec, .poweroff, .reboot: return true
        case .spawn, .reload: return false
        }
    }

    /// The item action it carries out, as the status file and the metrics name it.
    public var kind: ActionKind {
        switch self {
        case .exec: return .exec
        case .spawn: return .spawn
        case .reload: return .reload
        case .poweroff: return .poweroff
        case .reboot: return .reboot
        }
    }
}
