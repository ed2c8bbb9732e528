/// What the menu did that software outside may want to follow; `KioskControl` hands each to
/// its subscribers after the pass that caused it.
public enum ControlEvent: Equatable, Sendable {
    /// Another screen came to the top (a keypad's name while one is shown).
    case screenChanged(String)
    /// The screen settled on another item (never reported on a keypad).
    case selectionChanged(index: Int, label: String)
    /// An item was chosen (touch, knob press, key); `id` is its `id` if it has one.
    case itemActivated(id: String?, label: String)
    /// A press on an `api = true` toggle without commands: the kiosk asks whoever sets it to
    /// switch it `on` (or off); it shows the switch running until the state is set.
    case toggleRequested(id: String, on: Bool)
    /// A disk image update moved on a step (requested, checking, installing, ... installed).
    case updateChanged(ImageStatus.Update)
}
