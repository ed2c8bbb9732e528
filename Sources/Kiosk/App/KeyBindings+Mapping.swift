import LayoutCore

extension KeyBindings {
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
