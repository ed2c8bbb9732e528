/// What the menu says and when (`[speech]`), without any audio: the app tells it what happened,
/// and it hands out the text to say once the selection has rested `settle` seconds, or asks for
/// silence when the menu moves again. So turning fast says only the item it stops on.
///
/// - A screen that opens says its title, then the item selected on it.
/// - A selection that settles says the item's label as shown (with its live value).
/// - On the PIN keypad, a key the knob or keys rest on is said by name ("1"… "9", "0", "Delete",
///   "OK", read in the voice's language). A key pressed is never said: a digit says "Entered"
///   and nothing else; after a press or a touch on the keypad, no key is said until the knob or
///   keys move the selection (the return to the middle key after a digit, or a touched key,
///   would tell the digit to whoever listens).
struct SpeechCues {
    /// Seconds the selection must rest before it is said.
    var settle: Double
    /// The text waiting for its moment, and when what it says happened (the log's settle moment).
    /// `secret`: a key of the keypad, which the log must not name (the audio is for the person at
    /// the knob; a log line beside "Entered" would keep the PIN).
    private(set) var pending: (text: String, due: Double, since: Double, secret: Bool)?
    /// The item said with the title of a screen just opened: its first settling is that one.
    private var openedFocus: String?
    /// Something was handed out since the last movement: the next movement silences it.
    private var said = false
    /// Since the last knob or key movement, a key of the keypad was pressed or touched: its
    /// selections are not said until the knob or keys move it again.
    private var keypadQuiet = false

    init(settle: Double) { self.settle = settle }

    /// Input moved the menu (a turn, a key, a touch: `touch`): what is waiting is dropped; true
    /// when something said should be silenced.
    mutating func moved(touch: Bool) -> Bool {
        pending = nil
        openedFocus = nil
        keypadQuiet = touch
        defer { said = false }
        return said
    }

    /// A screen came to the top, with `focused` selected on it (the keypad's: the key's label).
    mutating func screenOpened(title: String, focused: String?, keypad: Bool = false, now: Double) {
        let parts = [title, keypad ? focused.map(Self.keyName) : focused].compactMap { $0 }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return }
        pending = (parts.joined(separator: ". "), now + settle, now, false)
        openedFocus = focused
    }

    /// The selection of a menu settled on an item whose label shows `label`.
    mutating func settled(on label: String, now: Double) {
        guard !label.isEmpty else { return }
        if pending != nil, label == openedFocus { return }
        openedFocus = nil
        pending = (label, now + settle, now, false)
    }

    /// The keypad's selection settled on the key labelled `key`.
    mutating func keypadSettled(on key: String, now: Double) {
        guard !keypadQuiet else { return }
        if pending != nil, key == openedFocus { return }
        openedFocus = nil
        pending = (Self.keyName(key), now + settle, now, true)
    }

    /// A key of the keypad was tapped or chosen; `digit`: it was a digit.
    mutating func keypadPressed(digit: Bool, now: Double) {
        keypadQuiet = true
        openedFocus = nil
        pending = digit ? ("Entered", now, now, false) : nil
    }

    /// The text due at `now` and when what it says happened, if any (handed out once).
    mutating func take(now: Double) -> (text: String, since: Double, secret: Bool)? {
        guard let p = pending, p.due <= now else { return nil }
        pending = nil
        said = true
        return (p.text, p.since, p.secret)
    }

    var deadline: Double? { pending?.due }

    static func keyName(_ key: String) -> String { key == "⌫" ? "Delete" : key }
}
