import LayoutCore

extension KeyBindings {
    /// The default bindings: `KeyMapping.standard`, the one table of default keys, by evdev name,
    /// each command's keys in key-code order.
    public static let standard: KeyBindings = {
        func names(_ command: MenuCommand) -> [String] {
            KeyMapping.standard.commands.filter { $0.value == command }.keys.sorted().compactMap { code in
                KeyCode.byName.filter { $0.value == code }.keys.min()
            }
        }
        return KeyBindings(next: names(.next), previous: names(.previous), select: names(.select), back: names(.back))
    }()

    /// The bindings as key codes; names the kiosk does not know are left out (`check-config` reports them).
    public var mapping: KeyMapping {
        var commands: [UInt32: MenuCommand] = [:]
        for (command, names) in [(MenuCommand.next, next), (.previous, previous), (.select, select), (.back, back)] {
            for name in names {
                if let code = KeyCode.byName[name] { commands[code] = command }
            }
        }
        return KeyMapping(commands)
    }
}
