import KioskConfiguration

/// A screen's config as drawn with its live values: each item with a value or a toggle carries
/// the text in its label (`LiveLabel`), so the screens draw it like any label, fitted or
/// shortened the same way, the layout sized for the widest each can show; ids, actions and icons are untouched.
enum LivePresentation {
    static func present(_ screen: ScreenConfig, values: LiveValues, now: Double) -> ScreenConfig {
        var shown = screen
        if let id = screen.id, screen.value != nil, let title = screen.title, let text = values.shownText(id, now: now) {
            shown.title = LiveLabel.compose(title, value: text)
        }
        for s in shown.sections.indices {
            for i in shown.sections[s].items.indices {
                let item = shown.sections[s].items[i]
                guard let id = item.id, item.value != nil || item.toggle != nil, let text = values.shownText(id, now: now) else { continue }
                shown.sections[s].items[i].label = LiveLabel.compose(item.label, value: text)
                // Sized for the widest reading, so that readings never move the layout.
                shown.sections[s].items[i].layoutLabel = values.reservedText(id).map { LiveLabel.compose(item.label, value: $0) }
            }
        }
        return shown
    }

    /// The ids of the values and toggles on `screen` (its title's first).
    static func ids(on screen: ScreenConfig) -> [String] {
        (screen.value != nil ? [screen.id].compactMap { $0 } : [])
            + screen.items.compactMap { item in item.value != nil || item.toggle != nil ? item.id : nil }
    }
}
