@testable import DRMOutput
import Foundation
import Geometry
@testable import KioskConfiguration
@testable import MenuScreens
import Raster
import Testing
import TestSupport
import Text
@testable import Kiosk

/// Configs nobody here wrote: generated the way strangers write them (every style, 1–40 items,
/// labels of 1–60 characters in eight scripts mixed with Latin words and digits, sections,
/// columns 1–4, `text_scale` 0.8–2, either direction, icons or none, live values and toggles),
/// each laid out at the eight common panel sizes through the preview (the device's own drawing),
/// and held to the layout's invariants. Seeded: a failure names its seed and writes its config
/// (`KIOSK_GENERATED_SEED=N` runs that one alone); `KIOSK_GENERATED_CONFIGS` sets how many.
@Suite struct GeneratedLayoutTests {
    static let sizes = [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (1280, 720), (480, 800), (600, 1024), (720, 1280)]
        .map { PanelSize(width: $0.0, height: $0.1) }

    static var count: Int { ProcessInfo.processInfo.environment["KIOSK_GENERATED_CONFIGS"].flatMap(Int.init) ?? 2000 }

    @Test func generatedConfigsHoldTheLayoutsInvariants() throws {
        let scratch = ScratchDirectory()
        let icon = ConfigPaths.repository + "/systemd/icons/settings.png"  // the example's own icon
        let seeds: [UInt64]
        if let one = ProcessInfo.processInfo.environment["KIOSK_GENERATED_SEED"].flatMap(UInt64.init) {
            seeds = [one]
        } else {
            seeds = (0..<UInt64(Self.count)).map { 0x5EED_0000 + $0 }
        }
        let font = try Font(path: Font.dejaVuSansPath)
        var failures: [String] = []
        var laidOut = 0
        for seed in seeds {
            var generator = StrangerConfigGenerator(seed: seed, icon: icon)
            let toml = generator.config()
            let path = scratch.path + "/\(seed).toml"
            try toml.write(toFile: path, atomically: true, encoding: .utf8)
            let check = ConfigReader(path: path, searchPath: "/usr/bin:/bin").check()
            guard let config = check.config, check.problems.allSatisfy({ $0.severity == .warning }) else {
                failures.append(Self.keep(seed, toml, ["the generated config does not load:\n\(check.report)"]))
                continue
            }
            var faults: [String] = []
            // Each config at every size; its values and its text scale compared at two of them.
            let assets = try LoadedAssets.load(for: config)
            for (n, size) in Self.sizes.enumerated() {
                let report = try renderPreview(config, PreviewState(screen: generator.screen, values: generator.values(long: false)),
                                               width: size.width, height: size.height, rotation: .none, assets: assets, to: nil)
                laidOut += 1
                faults += LayoutInvariants(report: report, font: font, generated: generator).faults
                guard n % 4 == Int(seed % 4) else { continue }
                if !generator.valueIDs.isEmpty {
                    let long = try renderPreview(config, PreviewState(screen: generator.screen, values: generator.values(long: true)),
                                                 width: size.width, height: size.height, rotation: .none, assets: assets, to: nil)
                    faults += LayoutInvariants.valuesKeepTheLayout(report, long)
                }
                if config.theme.textScale > 1 {
                    var plain = config
                    plain.theme.textScale = 1
                    let one = try renderPreview(plain, PreviewState(screen: generator.screen, values: generator.values(long: false)),
                                                width: size.width, height: size.height, rotation: .none, assets: assets, to: nil)
                    faults += LayoutInvariants.largerTextIsNeverSmaller(report, than: one, scale: config.theme.textScale)
                }
            }
            if !faults.isEmpty { failures.append(Self.keep(seed, toml, faults)) }
            if failures.count >= 5 { break }
        }
        print("generated layouts: \(seeds.count) configs, \(laidOut) layouts, \(failures.count) failing")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Writes a failing config where a developer finds it, and says how to run it again.
    static func keep(_ seed: UInt64, _ toml: String, _ faults: [String]) -> String {
        let dir = NSTemporaryDirectory() + "kiosk-generated"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = dir + "/seed-\(seed).toml"
        try? toml.write(toFile: file, atomically: true, encoding: .utf8)
        let shown = faults.prefix(6).joined(separator: "\n  ") + (faults.count > 6 ? "\n  … \(faults.count - 6) more" : "")
        return "seed \(seed) (KIOSK_GENERATED_SEED=\(seed); config written to \(file)):\n  \(shown)"
    }
}

/// What every layout must hold, checked on what the drawing reported.
struct LayoutInvariants {
    let report: LayoutReport
    let font: Font
    let generated: StrangerConfigGenerator

    var faults: [String] {
        let r = report
        let at = "\(r.width)x\(r.height)"
        var faults: [String] = []
        let screen = Rect(x: 0, y: 0, width: Double(r.width), height: Double(r.height))
        if r.items.isEmpty { return ["\(at): nothing drawn"] }
        // Nothing shortened that the floor fits in its row, on one line, beside its icon (unless
        // check-config says what the layout gave up for it).
        for item in r.shortenedItems where item.lines == 1 && r.cuts.isEmpty {
            let h = min(item.rect.height, item.rect.width)
            let padding = 0.05 * min(item.rect.width, 4 * h)
            let icon = generated.icons ? h * 0.6 * 0.5 + padding / 2 : 0
            let floor = min(item.fontSize, FittedLabel.legibleFloor)
            if font.measure(item.label, size: floor) + 2 * padding + icon < item.rect.width * 0.9 {
                faults.append("\(at): \"\(item.label)\" is shortened though it fits at \(floor) px in \(Int(item.rect.width)) px")
            }
        }
        for (a, b) in r.overlappingItems where a.index != b.index { faults.append("\(at): \"\(a.label)\" overlaps \"\(b.label)\"") }
        for item in r.itemsOverTitle { faults.append("\(at): \"\(item.label)\" over the title") }
        for item in r.itemsOffScreen { faults.append("\(at): \"\(item.label)\" off the screen at \(item.textRect)") }
        for item in r.itemsOverPanel { faults.append("\(at): \"\(item.label)\" over the side panel") }
        if !r.items.contains(where: { $0.selected && screen.contains($0.textRect) }) { faults.append("\(at): the selection is not on the screen") }
        // One size per level, and the hierarchy: title ≥ section headers ≥ items.
        let sizes = Set(r.items.map { ($0.fontSize * 100).rounded() })
        if sizes.count > 1 { faults.append("\(at): items drawn at \(sizes.sorted().map { $0 / 100 }) px, not one size") }
        let itemSize = r.items.map(\.fontSize).max() ?? 0
        let headerSizes = Set(r.headers.map { ($0.fontSize * 100).rounded() })
        if headerSizes.count > 1 { faults.append("\(at): section headers at \(headerSizes.sorted().map { $0 / 100 }) px") }
        let headerSize = r.headers.map(\.fontSize).max()
        if let headerSize, headerSize + 0.01 < itemSize { faults.append("\(at): section headers (\(headerSize) px) smaller than items (\(itemSize) px)") }
        if let title = r.title, title.fontSize + 0.01 < max(headerSize ?? 0, min(itemSize, Double(r.height) * 0.06 * 1.6 / 1.3)) {
            faults.append("\(at): the title (\(title.fontSize) px) is smaller than the level below it (\(max(headerSize ?? 0, itemSize)) px)")
        }
        // The screen's direction is every row's: its text starts at the row's reading start
        // (beside the icon column), whatever script the label begins with.
        if generated.style != "dial" {
            for item in r.items where item.lines == 1 && item.rect.width > item.rect.height * 1.5 {
                let h = item.rect.height
                let padding = 0.1 * min(item.rect.width, 4 * h)
                let start = padding + (generated.icons ? h * 0.6 + padding / 2 : 0) + 1.5
                let left = item.textRect.minX - item.rect.minX, right = item.rect.maxX - item.textRect.maxX
                if generated.rtl ? right > start : left > start {
                    faults.append("\(at): \"\(item.label)\" does not start at the \(generated.rtl ? "right" : "left") (\(Int(left)) | \(Int(right)), start \(Int(start)))")
                }
            }
        }
        if generated.subScreen, r.back == nil { faults.append("\(at): a sub-screen without its back button") }
        // Columns kept where each holds its longest label at the floor; a note where not.
        if generated.style == "list", generated.columns > 1, r.columns == nil {
            let first = generated.firstSectionCount
            let shown = Set(r.items.filter { $0.index < first }.compactMap(\.column))
            if shown.count < min(generated.columns, first) {
                faults.append("\(at): \(shown.count) columns drawn of \(generated.columns), and no note says why")
            }
        }
        return faults
    }

    /// Values of any length leave every plate where it was (and the side panel too).
    static func valuesKeepTheLayout(_ short: LayoutReport, _ long: LayoutReport) -> [String] {
        let at = "\(short.width)x\(short.height)"
        var faults: [String] = []
        let a = short.items.map(\.rect), b = long.items.map(\.rect)
        if a != b { faults.append("\(at): longer values moved the rows: \(a.prefix(3)) → \(b.prefix(3))") }
        if (short.panel == nil) != (long.panel == nil) || short.panel?.rect != long.panel?.rect {
            faults.append("\(at): longer values changed the side panel")
        }
        let sizes = (Set(short.items.map(\.fontSize)), Set(long.items.map(\.fontSize)))
        if sizes.0 != sizes.1 { faults.append("\(at): longer values changed the text size \(sizes.0) → \(sizes.1)") }
        return faults
    }

    /// A larger `text_scale` never draws a level smaller than 1 does.
    static func largerTextIsNeverSmaller(_ large: LayoutReport, than plain: LayoutReport, scale: Double) -> [String] {
        let at = "\(large.width)x\(large.height) at text_scale \(scale)"
        var faults: [String] = []
        let a = large.items.map(\.fontSize).max() ?? 0, b = plain.items.map(\.fontSize).max() ?? 0
        if a + 0.01 < b { faults.append("\(at): items at \(a) px, smaller than the \(b) px of text_scale 1") }
        // Headers stay below the title, which may give way (below): never smaller than at 1
        // unless the title they head is.
        if let h = large.headers.first?.fontSize, let p = plain.headers.first?.fontSize, h + 0.01 < min(p, large.title?.fontSize ?? p) {
            faults.append("\(at): section headers at \(h) px, smaller than \(p) px")
        }
        // The title may give way where the larger back button leaves it less room, but never
        // below the items (nor cut: the invariants above check that).
        if let t = large.title?.fontSize, let p = plain.title?.fontSize, t + 0.01 < min(p, a) {
            faults.append("\(at): the title at \(t) px, smaller than \(min(p, a)) px")
        }
        return faults
    }
}

/// Writes configs as strangers do, from a seed (the same seed gives the same config on every machine).
struct StrangerConfigGenerator {
    private var random: SeededGenerator
    let icon: String
    /// What the last `config()` made, for the invariants.
    private(set) var style = "arc"
    private(set) var rtl = false
    private(set) var icons = false
    private(set) var columns = 1
    private(set) var firstSectionCount = 0
    private(set) var subScreen = false
    private(set) var valueIDs: [String] = []
    private(set) var toggleIDs: [String] = []
    var screen: String { subScreen ? "generated" : "main" }

    init(seed: UInt64, icon: String) {
        random = SeededGenerator(seed: seed)
        self.icon = icon
    }

    mutating func next() -> UInt64 { random.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 10_000) < p * 10_000 }
    mutating func pick<T>(_ options: [T]) -> T { options[int(0...options.count - 1)] }

    static let words: [String: [String]] = [
        "latin": ["Espresso", "Settings", "Wi-Fi", "Bluetooth", "Temperatur", "Lüftung", "Ogrzewanie", "Światło", "Verlichting",
                  "Woonkamer", "Kalibrierung", "Nozzle", "Preheat", "Filament", "Maintenance", "guest", "network", "MRI", "Kitchen",
                  "Żaluzje", "Garagedeur", "Schlafzimmer", "Check-in"],
        "greek": ["Ρυθμίσεις", "Καφές", "Θερμοκρασία", "Φωτισμός", "Είσοδος"],
        "cyrillic": ["Настройки", "Температура", "Освещение", "Кофе", "Приёмная"],
        "arabic": ["الإعدادات", "الوسائط", "درجة الحرارة", "المواعيد", "العيادات", "الخارجية"],
        "hebrew": ["הגדרות", "תהודה", "מגנטית", "מרפאות", "חוץ", "אורחים", "קבלה"],
        "cjk": ["设置", "温度", "照明", "咖啡", "設定", "お知らせ", "受付"],
        "devanagari": ["सेटिंग्स", "तापमान", "रोशनी", "कॉफ़ी", "स्वागत"],
        "digits": ["09:45", "21.5", "3", "2024", "12", "B2"],
    ]

    /// A label of about `length` characters: words of one script, Latin words and digits mixed in.
    mutating func label(script: String, length: Int) -> String {
        var out = ""
        while out.count < length {
            let pool = chance(0.25) ? pick(["latin", "digits"]) : script
            let word = pick(Self.words[pool]!)
            out += out.isEmpty ? word : " " + word
        }
        if out.count > length, length < 6 { out = String(out.prefix(max(1, length))) }
        return out.replacingOccurrences(of: "\"", with: "")
    }

    func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    /// The value texts a preview shows: short ones, or long ones (the layout must not move).
    func values(long: Bool) -> [(id: String, text: String)] {
        valueIDs.map { ($0, long ? "123456.7" : "7") } + toggleIDs.enumerated().map { ($0.element, $0.offset % 2 == 0 ? "on" : "off") }
    }

    mutating func config() -> String {
        style = pick(["arc", "dial", "list"])
        rtl = chance(0.35)
        icons = style != "dial" && chance(0.3)
        subScreen = chance(0.5)
        valueIDs = []
        toggleIDs = []
        let script = rtl ? pick(["arabic", "hebrew", "latin"]) : pick(["latin", "greek", "cyrillic", "cjk", "devanagari", "latin", "arabic"])
        let scale = Double(int(8...20)) / 10
        let count = int(1...40)
        let longest = pick([8, 16, 30, 60])
        var out = "home = \"main\"\n\n[theme]\ntext_scale = \(scale)\n"
        if chance(0.3) { out += "preset = \"light\"\n" }
        if rtl { out += "back_label = \(quoted(script == "hebrew" ? "חזרה" : "رجوع"))\n" }
        if subScreen {
            out += "\n[screens.main]\ntitle = \"Home\"\nstyle = \"arc\"\n\n[[screens.main.items]]\nlabel = \"Open\"\naction = \"screen\"\nscreen = \"generated\"\n"
        }
        let name = screen
        out += "\n[screens.\(name)]\n"
        if chance(0.85) { out += "title = \(quoted(label(script: script, length: int(3...max(3, longest / 2)))))\n" }
        out += "style = \"\(style)\"\n"
        if rtl { out += "direction = \"rtl\"\n" }
        switch style {
        case "arc":
            out += "edge = \"\(pick(rtl ? ["left", "left", "bottom"] : ["right", "right", "left", "bottom", "top"]))\"\n"
            out += "wrap = \(chance(0.5))\n"
        case "dial":
            out += "slots = \(int(5...12))\nwrap = \(chance(0.5))\n"
        default:
            columns = int(1...4)
            out += "columns = \(columns)\n"
        }
        var itemNumber = 0
        func item(_ table: String, _ out: inout String, _ g: inout StrangerConfigGenerator) {
            out += "\n[[\(table)]]\nlabel = \(g.quoted(g.label(script: script, length: g.int(1...longest))))\n"
            if g.icons, g.chance(0.7) { out += "icon = \(g.quoted(g.icon))\n" }
            if g.chance(0.15) {
                let id = "v\(itemNumber)"
                g.valueIDs.append(id)
                out += "id = \"\(id)\"\nvalue = { api = true, unit = \"°C\" }\naction = \"back\"\n"
            } else if g.chance(0.08) {
                let id = "t\(itemNumber)"
                g.toggleIDs.append(id)
                out += "id = \"\(id)\"\ntoggle = { api = true, on = [\"/bin/true\"], off = [\"/bin/true\"] }\n"
            } else {
                out += "action = \"back\"\n"
            }
            if g.style == "arc", g.chance(0.3) { out += "description = \(g.quoted(g.label(script: script, length: g.int(10...120))))\n" }
            itemNumber += 1
        }
        if style == "list" {
            var left = count
            var first = true
            while left > 0 {
                let n = first ? min(left, int(1...max(1, left))) : left > 1 ? int(1...left) : 1
                out += "\n[[screens.\(name).sections]]\n"
                if chance(0.8) { out += "title = \(quoted(label(script: script, length: int(2...longest))))\n" }
                if first { firstSectionCount = n }
                for _ in 0..<n { item("screens.\(name).sections.items", &out, &self) }
                left -= n
                first = false
            }
        } else {
            firstSectionCount = count
            for _ in 0..<count { item("screens.\(name).items", &out, &self) }
        }
        return out
    }
}
