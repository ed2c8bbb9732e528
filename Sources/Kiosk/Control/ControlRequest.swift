/// What software on the device asks of the kiosk, whatever carried the request (D-Bus, MQTT).
/// `KioskControl.handle` passes each through the `ActionGate` and answers it with a
/// `ControlReply` or a `ControlError`.
public enum ControlRequest: Equatable, Sendable {
    /// Show the screen named so: the stack becomes home and that screen (home alone for home).
    /// A screen behind a PIN that is not open is refused (`ControlError.locked`): the API never
    /// opens what the keypad guards, nor puts a keypad before someone who did not ask for it.
    case showScreen(String)
    /// A message over whatever is shown (the keypad too) for `seconds`.
    case notify(text: String, seconds: Double, level: NotifyLevel)
    /// Value `id` as this text (parsed and formatted as its `value` says).
    case setValue(id: String, text: String)
    /// Toggle `id`'s state as known from outside (no `on`/`off` command runs).
    case setToggle(id: String, on: Bool)
    /// Activates the item `id` as a press on it would (MQTT's `cmd/press/ID`, a Home Assistant
    /// button); an item that opens a screen behind a PIN is refused, never opened.
    case press(id: String)
    /// Back to the home screen.
    case goHome
    /// What is shown now (`ControlReply.state`).
    case state
    /// Install the disk image update in the folder `source` (a device made from the Kiosk image;
    /// nil: `[control] update_source`); `reboot`: restart into it once installed (nil:
    /// `[control] update_reboot`); `force`: even while the panel is in use.
    case update(source: String?, reboot: Bool?, force: Bool)
    /// The disk image's versions and update (`ControlReply.image`).
    case image
}

/// How much a notification matters; drawn as a word before the text (never colour alone).
public enum NotifyLevel: String, CaseIterable, Sendable {
    case info, warning, error

    /// The word the banner starts with.
    public var word: String {
        switch self {
        case .info: "Info"
        case .warning: "Warning"
        case .error: "Error"
        }
    }
}

/// A request's answer when it was carried out.
public enum ControlReply: Equatable, Sendable {
    case done
    case state(ControlState)
    case image(ImageStatus)
}
