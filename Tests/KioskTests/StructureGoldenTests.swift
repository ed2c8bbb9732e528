@testable import DRMOutput
import Foundation
@testable import KioskConfiguration
@testable import MenuScreens
import Raster
import Testing
import TestSupport
@testable import Kiosk

/// The author's structure as the device draws it, where it used to be lost: a list's columns
/// kept at 1080p, right-to-left rows that start with a Latin word or a time, a dial in portrait,
/// a list at `text_scale = 1.5`, a non-wrapping arc that starts at the top, and values arriving beside a shown side panel. Goldens of
/// `kiosk render` (the preview is the device), and the layout report's facts beside them.
@Suite struct StructureGoldenTests {
    static func load(_ toml: String) throws -> KioskConfig {
        let scratch = ScratchDirectory()
        let path = scratch.path + "/kiosk.toml"
        try toml.write(toFile: path, atomically: true, encoding: .utf8)
        let check = ConfigReader(path: path, searchPath: "/usr/bin:/bin").check()
        return try #require(check.config, "\(check.report)")
    }

    static func render(_ config: KioskConfig, _ state: PreviewState, _ w: Int, _ h: Int, golden: String) throws -> LayoutReport {
        let scratch = ScratchDirectory()
        let file = scratch.path + "/shot.png"
        let report = try renderPreview(config, state, width: w, height: h, rotation: .none, to: file)
        try goldens.expectMatches(try PNGCodec.read(path: file), golden)
        return report
    }

    static let clinic = """
        home = "clinic"
        [screens.clinic]
        title = "Outpatient clinics"
        style = "list"
        columns = 3
        [[screens.clinic.sections]]
        title = "Cardiology"
        [[screens.clinic.sections.items]]
        label = "Dr. Cohen · Room 12"
        action = "back"
        [[screens.clinic.sections.items]]
        label = "Dr. Haddad · Room 14"
        action = "back"
        [[screens.clinic.sections.items]]
        label = "ECG and stress test"
        action = "back"
        [[screens.clinic.sections]]
        title = "Imaging"
        [[screens.clinic.sections.items]]
        label = "MRI · magnetic resonance"
        action = "back"
        [[screens.clinic.sections.items]]
        label = "X-ray, ground floor"
        action = "back"
        [[screens.clinic.sections]]
        title = "Laboratory"
        [[screens.clinic.sections.items]]
        label = "Blood tests"
        action = "back"
        """

    /// Three columns at 1080p: every column holds its labels, so all three are drawn.
    @Test func columnsAreKeptWhereTheyFit() throws {
        let r = try Self.render(try Self.load(Self.clinic), PreviewState(screen: "clinic"), 1920, 1080, golden: "structure-list-columns-1920x1080")
        #expect(Set(r.items.compactMap(\.column)) == [0, 1, 2], "\(r.json)")
        #expect(r.columns == nil && r.shortenedItems.isEmpty)
        #expect(Set(r.items.map(\.fontSize)).count == 1, "one size for every row")
        let header = try #require(r.headers.first?.fontSize), item = try #require(r.items.first?.fontSize)
        #expect(try #require(r.title).fontSize >= header && header >= item)
        // In portrait they cannot all hold "MRI · magnetic resonance" at the floor: fewer, and the
        // report (and so check-config) says how many and the width one needs.
        let narrow = try renderPreview(try Self.load(Self.clinic), PreviewState(screen: "clinic"), width: 480, height: 800, rotation: .none, to: nil)
        let columns = try #require(narrow.columns, "\(narrow.json)")
        #expect(columns.wanted == 3 && columns.kept < 3 && Set(narrow.items.compactMap(\.column)).count == columns.kept)
        #expect(narrow.json.contains("\"columns\": {\"wanted\": 3, \"kept\": \(columns.kept)"), "\(narrow.json)")
        let warnings = LayoutProbe.warnings(try Self.load(Self.clinic), file: "k.toml", panels: [PanelSize(width: 480, height: 800)],
                                            assets: try LoadedAssets.load(for: try Self.load(Self.clinic)))
        #expect(warnings.contains { $0.message.contains("\(columns.kept) of 3 columns shown") }, "\(warnings.map(\.message))")
    }

    static let reception = """
        home = "reception"
        [theme]
        back_label = "חזרה"
        [screens.reception]
        title = "קבלה"
        style = "arc"
        edge = "left"
        direction = "rtl"
        [[screens.reception.items]]
        label = "MRI · תהודה מגנטית"
        action = "back"
        [[screens.reception.items]]
        label = "Wi-Fi לאורחים"
        action = "back"
        [[screens.reception.items]]
        label = "09:45 תור לרופא"
        action = "back"
        [[screens.reception.items]]
        label = "מרפאות חוץ"
        action = "back"
        """

    /// A right-to-left screen is the base direction of every label on it: rows that start with a
    /// Latin word or a time end at the plate's right padding like the Hebrew ones.
    @Test func rightToLeftRowsStartingWithLatinAlignRight() throws {
        let r = try Self.render(try Self.load(Self.reception), PreviewState(screen: "reception"), 800, 480, golden: "structure-rtl-latin-start-800x480")
        let gaps = r.items.map { $0.rect.maxX - $0.textRect.maxX }
        #expect(gaps.max()! - gaps.min()! < 1.5, "every row ends at the same right padding: \(gaps)")
    }

    static let appointments = """
        home = "times"
        [screens.times]
        title = "Appointment"
        style = "dial"
        slots = 9
        \((["08:30 Blood test", "09:00 Dr. Cohen", "09:45 ECG", "10:15 X-ray", "11:00 MRI", "11:30 Dr. Haddad", "13:00 Physio",
            "14:15 Dentist", "15:00 Pharmacy"]).map { "[[screens.times.items]]\nlabel = \"\($0)\"\naction = \"back\"" }.joined(separator: "\n"))
        """

    /// A portrait dial shows at least five plates where it has that many items.
    @Test func aPortraitDialShowsAtLeastFivePlates() throws {
        let r = try Self.render(try Self.load(Self.appointments), PreviewState(screen: "times"), 720, 1280, golden: "structure-dial-portrait-720x1280")
        #expect(r.items.count >= 5, "\(r.items.count) plates")
        #expect(Set(r.items.map(\.fontSize)).count == 1)
    }

    static let settings = """
        home = "settings"
        [screens.settings]
        title = "Settings"
        style = "arc"
        \(["Wi-Fi", "Bluetooth", "Display", "Sound", "Language", "Date and time", "Updates",
            "Accessibility", "Privacy", "About this device", "Network", "Power"].map {
            "[[screens.settings.items]]\nlabel = \"\($0)\"\naction = \"back\"" }.joined(separator: "\n"))
        """

    /// A left or right arc that does not wrap opens with its first item selected at the top of the
    /// arc and the arc full below it (it used to stand at the apex, the upper half empty); at its
    /// last item the arc is full above it; in the middle the selection is at the apex.
    @Test(arguments: [(800, 480), (480, 800)])
    func aNonWrappingArcStartsAtTheTopOfItsArc(size: (Int, Int)) throws {
        let (w, h) = size
        let config = try Self.load(Self.settings)
        let first = try Self.render(config, PreviewState(screen: "settings"), w, h, golden: "structure-arc-no-wrap-\(w)x\(h)")
        let rows = first.items.sorted { $0.rect.minY < $1.rect.minY }
        #expect(rows.first?.index == 0 && rows.first?.selected == true, "\(rows.map(\.index))")
        #expect(rows.map(\.index) == Array(0..<rows.count), "\(rows.map(\.index))")
        #expect(rows.count >= 7, "\(rows.count) rows")
        let title = try #require(first.title)
        #expect(rows[0].rect.minY - title.rect.maxY < Double(h) / 6, "the first row \(rows[0].rect) far below the title \(title.rect)")
        let last = try renderPreview(config, PreviewState(screen: "settings", selection: 11), width: w, height: h, rotation: .none, to: nil)
        let lastRows = last.items.sorted { $0.rect.minY < $1.rect.minY }
        #expect(lastRows.last?.index == 11 && lastRows.last?.selected == true)
        #expect(lastRows.count == rows.count)
        let middle = try renderPreview(config, PreviewState(screen: "settings", selection: 6), width: w, height: h, rotation: .none, to: nil)
        let middleRows = middle.items.sorted { $0.rect.minY < $1.rect.minY }
        let selected = try #require(middleRows.firstIndex { $0.selected })
        #expect(abs(selected - (middleRows.count - 1 - selected)) <= 1, "the selection is not at the apex: \(middleRows.map(\.index))")
    }

    /// Large text in a list: rows grow, the text grows, nothing is cut at 800x480.
    @Test func aListAtOneAndAHalfTimesTheText() throws {
        var config = try Self.load(Self.clinic)
        let plain = try renderPreview(config, PreviewState(screen: "clinic"), width: 800, height: 480, rotation: .none, to: nil)
        config.theme.textScale = 1.5
        let r = try Self.render(config, PreviewState(screen: "clinic"), 800, 480, golden: "structure-list-text-scale-1.5-800x480")
        #expect(r.items[0].fontSize > plain.items[0].fontSize * 1.2, "\(plain.items[0].fontSize) → \(r.items[0].fontSize)")
        #expect(r.shortenedItems.isEmpty)
    }

    static let printer = """
        home = "printer"
        [screens.printer]
        title = "Printer"
        style = "arc"
        [[screens.printer.items]]
        label = "Nozzle"
        id = "nozzle"
        action = "back"
        value = { api = true, unit = "°C" }
        description = "The hot end's temperature, read every two seconds."
        [[screens.printer.items]]
        label = "Bed"
        id = "bed"
        action = "back"
        value = { api = true, unit = "°C" }
        [[screens.printer.items]]
        label = "Enclosure fan"
        id = "fan"
        toggle = { api = true, on = ["/bin/true"], off = ["/bin/true"], on_label = "an", off_label = "aus" }
        [[screens.printer.items]]
        label = "Preheat PLA"
        action = "back"
        """

    /// Values arriving leave the layout where it was: the side panel shown while they read "—"
    /// stays, every plate stays; the toggle speaks the author's words.
    @Test func valuesArriveWithoutMovingTheLayout() throws {
        let config = try Self.load(Self.printer)
        let before = try renderPreview(config, PreviewState(screen: "printer"), width: 1280, height: 800, rotation: .none, to: nil)
        let after = try Self.render(config, PreviewState(screen: "printer", values: [("nozzle", "215.3"), ("bed", "60"), ("fan", "on")]),
                                    1280, 800, golden: "structure-arc-values-panel-1280x800")
        #expect(before.panel != nil && after.panel?.rect == before.panel?.rect)
        #expect(after.items.map(\.rect) == before.items.map(\.rect))
        #expect(after.items.first { $0.label.hasPrefix("Nozzle") }?.value?.text == "215.3 °C", "\(after.json)")
        #expect(after.items.contains { LiveLabel.plain($0.label) == "Enclosure fan  ● an" }, "\(after.items.map(\.label))")
        #expect(after.json.contains("\"side_panel\": {\"label\": \"Nozzle  215.3 °C\"") && after.json.contains("\"value\": {\"text\": \"215.3 °C\""),
                "\(after.json)")
    }
}
