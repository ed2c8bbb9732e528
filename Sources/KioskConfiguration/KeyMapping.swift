import LayoutCore

/// Which key codes (Linux input event codes) mean which command.
public struct KeyMapping: Hashable, Sendable {
    public var commands: [UInt32: MenuCommand]

    public init(_ commands: [UInt32: MenuCommand]) { self.commands = commands }

    public func command(for code: UInt32) -> MenuCommand? { commands[code] }

    /// Arrows, volume and page keys move (a knob that sends volume keys turns clockwise with
    /// Volume Up: that is "next"); Enter, keypad Enter, Space and a knob's BTN_0 select;
    /// Escape, Backspace and the Back key go back.
    public static let standard = KeyMapping([
        KeyCode.down: .next, KeyCode.right: .next, KeyCode.volumeUp: .next, KeyCode.pageDown: .next,
        KeyCode.up: .previous, KeyCode.left: .previous, KeyCode.volumeDown: .previous, KeyCode.pageUp: .previous,
        KeyCode.enter: .select, KeyCode.keypadEnter: .select, KeyCode.space: .select, KeyCode.button0: .select,
        KeyCode.escape: .back, KeyCode.backspace: .back, KeyCode.back: .back,
    ])
}
