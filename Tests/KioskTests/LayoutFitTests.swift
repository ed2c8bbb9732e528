@testable import DRMOutput
import Foundation
import Geometry
@testable import KioskConfiguration
@testable import KioskSystem
@testable import MenuScreens
import Testing
import Text
@testable import Kiosk

/// Layout that fits: labels shrink before they are shortened, arcs are fitted below the title and
/// into portrait panels, and the layout report (`render --layout`, `check-config --size`) says
/// what was drawn.
@Suite struct LayoutFitTests {
    let font: Font

    init() throws { font = try Font(path: Font.dejaVuSansPath) }

    @Test func aLabelThatFitsKeepsItsSize() {
        let fit = FittedLabel("Espresso", font: font, size: 24, maxWidth: 500)
        #expect(fit == FittedLabel(text: "Espresso", size: 24, width: font.measure("Espresso", size: 24), shortened: false))
    }

    @Test func aLabelShrinksBeforeItIsShortened() {
        let natural = font.measure("Run a program", size: 24)
        let fit = FittedLabel("Run a program", font: font, size: 24, maxWidth: natural * 0.85)
        #expect(!fit.shortened && fit.text == "Run a program")
        #expect(fit.size < 24 && fit.size >= FittedLabel.legibleFloor)
        #expect(fit.width <= natural * 0.85 && fit.width == font.measure("Run a program", size: fit.size))
    }

    /// The floor is absolute: at half the width a 24 px label shrinks to 12 px, below the
    /// 14 px floor, so it is shortened at 14 px; at 60 % it fits at 14.4 px, and is kept whole.
    @Test func onlyBelowTheLegibleFloorIsALabelShortened() {
        let natural = font.measure("Run a program", size: 24)
        let fit = FittedLabel("Run a program", font: font, size: 24, maxWidth: natural * 0.5)
        #expect(fit.shortened && fit.text.hasSuffix("\u{2026}") && fit.text.hasPrefix("Run"))
        #expect(fit.size == FittedLabel.legibleFloor)
        #expect(fit.width <= natural * 0.5)
        let whole = FittedLabel("Run a program", font: font, size: 24, maxWidth: natural * 0.62)
        #expect(!whole.shortened && whole.size >= FittedLabel.legibleFloor && whole.size < 24 * 0.75, "\(whole)")
        // A label asked for below the floor is never shrunk further.
        let small = FittedLabel("Run a program", font: font, size: 10, maxWidth: 20)
        #expect(small.size == 10 && small.shortened)
    }

    /// A long label is cut before its live value: "Nozzle temperature of the left extr… 215 °C",
    /// never "Nozzle temperature of the left extruder 2…". In either reading direction.
    @Test func aShortenedLabelKeepsItsValueWhole() {
        for (label, value) in [("Nozzle temperature of the left extruder", "215.3 °C"),
                               ("درجة حرارة الفوهة اليسرى للطابعة", "215.3 °C"),
                               ("Heizung im Erdgeschoss {value} (Soll)", "21 °C")] {
            let composed = LiveLabel.compose(label, value: value)
            let room = font.measure(LiveLabel.plain(composed), size: FittedLabel.legibleFloor) * 0.6
            let fit = FittedLabel(composed, font: font, size: 24, maxWidth: room)
            #expect(fit.shortened && fit.width <= room + 0.5, "\(fit)")
            #expect(LiveLabel.plain(fit.text).contains(value) && fit.text.contains("…"), "\(fit.text)")
            // Without the marks the same text loses its end, the value with it.
            let unmarked = FittedLabel(LiveLabel.plain(composed), font: font, size: 24, maxWidth: room)
            #expect(!unmarked.text.contains(value) || label.contains("{value}"))
        }
        // A value wider than the room on its own is shortened like any text.
        let wide = FittedLabel(LiveLabel.compose("T", value: String(repeating: "8", count: 80)), font: font, size: 24, maxWidth: 100)
        #expect(wide.shortened && wide.width <= 100.5)
    }

    @Test func noRoomAtAllDrawsNothingAndNeverTraps() {
        for width in [0, -5, .nan, .infinity] as [Double] {
            let fit = FittedLabel("Zurück", font: font, size: 20, maxWidth: width)
            #expect(fit.width <= max(0, width.isFinite ? width : 0) || fit.text.isEmpty)
        }
    }

    // MARK: Arcs

    static func arc(_ labels: [String], style: ArcStyle = ArcStyle(), title: String? = "Coffee") -> ScreenConfig {
        ScreenConfig(name: "main", title: title, layout: .arc(style), sections: [MenuSection(items: ScreenFixtures.items(labels))])
    }

    static func config(_ screens: ScreenConfig..., home: String = "main") -> KioskConfig {
        KioskConfig(home: home, screens: screens)
    }

    func report(_ config: KioskConfig, screen: String = "main", _ w: Int, _ h: Int, rotation: DisplayRotation = .none) throws -> LayoutReport {
        try LayoutProbe.report(config, screen: screen, width: w, height: h, rotation: rotation,
                               assets: LoadedAssets(font: font))
    }

    /// The issue's complaints: "Run a program" and "Espresso" cut, the top row over the title.
    @Test func defaultArcLabelsAreWholeAndClearOfTheTitle() throws {
        let config = Self.config(Self.arc(["Espresso", "Cappuccino", "Run a program", "Hot water", "Zurück"]))
        for (w, h) in [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (480, 800), (600, 1024)] {
            let r = try report(config, w, h)
            #expect(r.shortenedItems.isEmpty, "\(w)x\(h): \(r.shortenedItems.map(\.label))")
            #expect(r.itemsOverTitle.isEmpty && r.itemsOffScreen.isEmpty && r.overlappingItems.isEmpty, "\(w)x\(h)\n\(r.json)")
            #expect(r.items.allSatisfy { $0.fontSize == r.items[0].fontSize }, "\(w)x\(h): every label at the theme's size")
            #expect(r.items.filter(\.selected).map(\.label) == ["Espresso"])
        }
    }

    /// A portrait panel: the ellipse flattens so that rows keep their labels; the rows share one
    /// size, as large as the longest label that fits at the floor allows; a far longer label is
    /// broken onto two lines or cut, never drawn smaller than its neighbours.
    @Test func portraitRowsShareOneSizeAndOnlyTheTooLongIsCut() throws {
        let long = "Cappuccino with oat milk"
        let longer = "Cappuccino with oat milk, extra hot, in a large cup to take away"
        let config = Self.config(Self.arc(["Espresso", long, longer]))
        let r = try report(config, 480, 800)
        let items = Dictionary(r.items.map { ($0.label, $0) }, uniquingKeysWith: { a, _ in a })
        let espresso = try #require(items["Espresso"]), middle = try #require(items[long]), cut = try #require(items[longer])
        #expect(!middle.shortened && middle.fontSize == espresso.fontSize, "\(r.json)")
        #expect(middle.fontSize >= FittedLabel.legibleFloor - 0.01)
        #expect((cut.shortened || cut.lines == 2) && cut.fontSize == espresso.fontSize, "\(r.json)")
        #expect(r.itemsOffScreen.isEmpty && r.itemsOverTitle.isEmpty, "\(r.json)")
    }

    /// `row_length = 0.95` on a portrait panel: rows are cut back to what the panel leaves, never off-screen.
    @Test func anAbsurdRowLengthStaysOnScreen() throws {
        let config = Self.config(Self.arc(["Espresso", "Tea"], style: ArcStyle(rowLength: 0.95)))
        for (w, h) in [(480, 800), (800, 480), (2, 2), (64, 4000)] {
            let r = try report(config, w, h)
            for item in r.items {
                #expect(item.rect.minX >= -0.5 && item.rect.maxX <= Double(w) + 0.5, "\(w)x\(h): \(item)")
                #expect(item.fontSize.isFinite && item.rect.width.isFinite)
            }
        }
    }

    /// Every label 500 characters, on every style, on panels from 2x2 up: something sane is laid
    /// out (finite, shortened, on the screen) and the warnings quote the labels cut short.
    @Test func fiveHundredCharacterLabelsAreShortenedEverywhere() throws {
        let long = (0..<4).map { String(repeating: "Label \($0) ", count: 60) }
        let screens = [
            Self.arc(long, title: String(repeating: "T", count: 500)),
            ScreenConfig(name: "dial", title: "D", layout: .dial(DialStyle()), sections: [MenuSection(items: ScreenFixtures.items(long))]),
            ScreenConfig(name: "list", title: "L", layout: .list(ListStyle(columns: 8, rowHeight: 0.1)),
                         sections: [MenuSection(title: String(repeating: "S", count: 500), items: ScreenFixtures.items(long))]),
        ]
        let config = KioskConfig(home: "main", screens: screens)
        for (w, h) in [(2, 2), (1, 400), (800, 480)] {
            for screen in screens {
                let r = try report(config, screen: screen.name, w, h)
                #expect(r.items.allSatisfy { $0.fontSize.isFinite && $0.rect.width.isFinite && $0.textRect.width <= max(1, $0.rect.width) })
            }
        }
        let warnings = LayoutProbe.warnings(config, file: "k.toml", panels: [PanelSize(width: 800, height: 480)], assets: LoadedAssets(font: font))
        #expect(warnings.contains { $0.message.hasPrefix("\"Label 0 Label 0 Label 0 Label 0 Label 0 \u{2026}\" is shortened") }, "\(lines(warnings))")
        #expect(warnings.allSatisfy { $0.message.count < 120 })
    }

    /// A bottom-edge arc that does not wrap opens on its middle item: its tiles spread evenly.
    @Test func aBottomEdgeArcIsCentred() throws {
        let config = Self.config(Self.arc(["Log", "Wait", "Back"], style: ArcStyle(edge: .bottom, rowsVisible: 5)))
        let r = try report(config, 800, 480)
        #expect(r.items.filter(\.selected).map(\.label) == ["Wait"])
        let centres = r.items.map { $0.rect.midX }
        #expect(r.items.count == 3 && abs((centres.min()! + centres.max()!) / 2 - 400) < 1, "\(centres)")
    }

    /// Rows with and without icons start their labels in one column.
    @Test func labelsStartInLineWhetherOrNotARowHasAnIcon() throws {
        var items = ScreenFixtures.items(["Radio", "Tools", "Settings"])
        items[0].icon = "/nonexistent/radio.png"  // not decoded: the column is still kept
        let screen = ScreenConfig(name: "main", title: "T", layout: .arc(ArcStyle(radiusRatio: 0)), sections: [MenuSection(items: items)])
        let r = try report(Self.config(screen), 800, 480)
        let starts = Set(r.items.map { ($0.textRect.minX - $0.rect.minX).rounded() })
        #expect(starts.count == 1, "\(r.json)")
    }

    // MARK: Dial

    @Test func theDialsLabelsAreWholeAtEverySize() throws {
        let config = Self.config(ScreenFixtures.dialConfig(), home: "dial")
        for (w, h) in [(800, 480), (1024, 600), (1920, 1080), (480, 800)] {
            let r = try report(config, screen: "dial", w, h)
            #expect(r.items.count == 8 && r.shortenedItems.isEmpty, "\(w)x\(h): \(r.shortenedItems.map(\.label))")
            #expect(r.overlappingItems.isEmpty && r.itemsOverTitle.isEmpty)
        }
    }

    /// The hub shows the selected label whole, never below the items' size: on one line, on two
    /// broken at a space, or not at all (the selected plate shows it); never shortened.
    @Test func theDialsHubShowsALabelWholeOrNotAtAll() throws {
        let fine = try report(Self.config(ScreenFixtures.dialConfig(), home: "dial"), screen: "dial", 800, 480)
        #expect(fine.hub.count == 8 && fine.hub.allSatisfy { $0.lines == 1 }, "\(fine.json)")
        let long = "Wasserkocherentkalkungsprogramm"
        let config = Self.config(ScreenFixtures.dialConfig(labels: ["Tea", "Coffee", long, "Chocolat chaud", "Milk"]),
                                 home: "dial")
        let r = try report(config, screen: "dial", 480, 800)
        #expect(r.hub[2].lines == 0 && r.hub.enumerated().allSatisfy { $0.offset == 2 || $0.element.lines >= 1 }, "\(r.json)")
        let itemSize = r.items.map(\.fontSize).min() ?? 0
        #expect(r.hub.allSatisfy { $0.fontSize >= itemSize - 0.01 }, "never below the items' size: \(r.json)")
    }

    // MARK: The report itself

    @Test func theJSONIsWhatTheIssueAsksFor() throws {
        let config = Self.config(Self.arc(["Espresso", "Café \"crème\""]))
        let r = try report(config, 800, 480, rotation: .quarter)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.json.utf8)) as? [String: Any], "\(r.json)")
        #expect(json["screen"] as? String == "main")
        #expect(json["size"] as? [Int] == [480, 800], "the unrotated screen")
        let title = try #require(json["title"] as? [String: Any])
        #expect(title["text"] as? String == "Coffee" && (title["rect"] as? [Double])?.count == 4)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.count == r.items.count && !items.isEmpty)
        for item in items {
            for key in ["label", "rect", "text_rect", "font_size", "shortened", "selected"] { #expect(item[key] != nil, "\(key) missing") }
        }
        #expect(items.contains { $0["label"] as? String == "Café \"crème\"" })
    }

    /// `check-config --size` places its warnings in the file, as the reader's own: line and column.
    @Test func checkConfigSizeWarningsCarryTheirLine() throws {
        let scratch = ScratchDirectory()
        let path = scratch.write("k.toml", """
            home = "main"

            [screens.main]
            style = "list"
            title = "Main"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            label = "Tea"
            action = "back"

            [[screens.main.sections.items]]
            label = "\(String(repeating: "Very long label ", count: 20))"
            action = "back"
            """)
        let loaded = LoadedConfig.load(using: ConfigReader(path: path, displayName: "k.toml"))
        let config = try #require(loaded.check.config, "\(loaded.check.report)")
        let assets = try #require(loaded.assets)
        let warnings = LayoutProbe.warnings(config, file: "k.toml", panels: [PanelSize(width: 480, height: 800)], assets: assets)
            .map(loaded.check.located)
        let long = try #require(warnings.first { $0.description.contains("Very long") }, "\(warnings.map(\.description))")
        #expect([12, 13].contains(long.location.line), "\(long.description)")
        #expect(long.description.hasPrefix("k.toml:1"), "\(long.description)")
    }

    @Test func checkConfigSizeWarnsNamingTheKeyPath() throws {
        let list = ScreenConfig(name: "settings", title: "Settings", layout: .list(ListStyle(columns: 2, rowHeight: 0.1)),
                                sections: [MenuSection(items: ScreenFixtures.items(["Wi-Fi"])),
                                           MenuSection(items: ScreenFixtures.items(["Tea", String(repeating: "Very long label ", count: 20)]))])
        // row_length = 0.2 is too short for "Espresso" at the theme's size but not at the floor:
        // the label shrinks, the row grows to the floor's need, and nothing is said about it.
        let config = Self.config(Self.arc(["Espresso", String(repeating: "Cappuccino ", count: 12)], style: ArcStyle(rowLength: 0.2)), list)
        let problems = LayoutProbe.warnings(config, file: "k.toml", panels: [PanelSize(width: 480, height: 800)],
                                            assets: LoadedAssets(font: font))
        let lines = problems.map(\.description)
        #expect(problems.allSatisfy { $0.severity == .warning })
        #expect(lines.contains { $0.hasPrefix("k.toml: screens.settings.sections[1].items[1]: warning: \"Very long") && $0.hasSuffix("at 480x800") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("k.toml: screens.main.items[1]: warning: \"Cappuccino") }, "\(lines)")
        #expect(!lines.contains { $0.contains("Wi-Fi") || $0.contains("\"Tea\"") || $0.contains("Espresso") }, "\(lines)")
    }
}
