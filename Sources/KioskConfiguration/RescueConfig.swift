import Raster

extension KioskConfig {
    /// The built-in config used when the first config at start-up cannot be used: one list screen
    /// that shows the problems (so the screen is never blank and systemd sees no restart loop) and
    /// offers to read the file again. It needs nothing from the file system but the default font.
    public static func rescue(problems: [ConfigProblem], maximumLines: Int = 6) -> KioskConfig {
        let errors = problems.errors.isEmpty ? problems : problems.errors
        var lines = errors.prefix(maximumLines).map(\.description)
        if errors.count > maximumLines { lines.append("… and \(errors.count - maximumLines) more (kiosk check-config FILE lists all)") }
        if lines.isEmpty { lines = ["no configuration could be loaded"] }
        let problemItems = lines.map { MenuItem(label: $0, action: .reload) }
        // Dark whatever the default preset: an error screen should not glare.
        let background = BackgroundConfig(preset: .dark)
        let screen = ScreenConfig(
            name: "rescue", title: "The configuration has errors", layout: .list(ListStyle(columns: 1, rowHeight: 0.09)),
            background: background,
            sections: [
                MenuSection(title: "Problems", items: problemItems),
                MenuSection(title: "Fix the file, then", items: [MenuItem(label: "Reload configuration", action: .reload)]),
            ])
        let theme = ThemeConfig(preset: .dark)
        return KioskConfig(background: background, theme: theme, home: "rescue", screens: [screen])
    }
}
