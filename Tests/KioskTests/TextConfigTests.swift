import Foundation
import Geometry
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing
import Text
@testable import Kiosk

/// Text in every language as a config author meets it: right-to-left screens, fonts by family,
/// and check-config's word on characters no font has.
@Suite(.serialized) struct TextConfigTests {
    func check(_ text: String) -> ConfigCheck {
        let dir = ScratchDirectory()
        let path = dir.write("kiosk.toml", text)
        return withExtendedLifetime(dir) { ConfigReader(path: path, displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check() }
    }

    static let rtlList = ScreenConfig(
        name: "he", title: "הגדרות", layout: .list(ListStyle(columns: 2, rowHeight: 0.1)),
        background: BackgroundConfig(pattern: .checker, cell: 32),
        sections: [
            MenuSection(title: "רשת", items: ScreenFixtures.items(["Wi-Fi", "קפה", "תה עם נענע"])),
            MenuSection(title: "מערכת", items: ScreenFixtures.items(["123", "כיבוי"])),
        ],
        direction: .rightToLeft)

    @Test func rightToLeftListMirrorsColumnsTitleAndBackButton() throws {
        let resources = try ScreenFixtures.resources(theme: ThemeConfig(backLabel: "חזרה"))
        let screen = try ListScreen(config: Self.rtlList, style: ListStyle(columns: 2, rowHeight: 0.1), resources: resources, showsBack: true)
        let rows = screen.shape.layout.rows
        let width = Double(ScreenFixtures.width)
        // The waterfall's first column is the right one.
        #expect(rows[0].column == 0 && rows[0].frame.minX > width / 2)
        #expect(rows[1].column == 1 && rows[1].frame.maxX < width / 2)
        // The back button is at the top right, and that is where a tap goes back.
        let back = resources.backButton(reading: .rightToLeft)
        #expect(back.maxX > width * 0.9 && back.minX > width / 2)
        #expect(resources.backButton(reading: .leftToRight).minX < width * 0.1)
        let frame = try ScreenFixtures.frame(of: screen)
        try goldens.expectMatches(frame, "list-rtl-800x480")
    }

    /// On a dial, an icon leads its label: at the right of an Arabic one, at the left of a Latin one.
    @Test func dialIconsLeadInTheLabelsDirection() throws {
        let icon = ConfigPaths.repository + "/systemd/icons/radio.png"
        let items = [MenuItem(label: "راديو", icon: icon, action: .back), MenuItem(label: "Radio", icon: icon, action: .back),
                     MenuItem(label: "قهوة", action: .back)]
        let config = ScreenConfig(name: "dial", title: "الوسائط", layout: .dial(DialStyle(slots: 3)),
                                  background: BackgroundConfig(pattern: .circles, cell: 48), sections: [MenuSection(items: items)],
                                  direction: .rightToLeft)
        let screen = try DialScreen(config: config, style: DialStyle(slots: 3),
                                    resources: try ScreenFixtures.resources(imagePaths: [icon]), showsBack: true)
        try goldens.expectMatches(try ScreenFixtures.frame(of: screen), "dial-rtl-icons-800x480")
    }

    /// The screen's direction is every label's: a Hebrew label on a left-to-right screen starts at
    /// its plate's left padding; a Latin one on a right-to-left screen ends at the right.
    @Test func labelsAlignByTheScreensDirection() throws {
        let resources = try ScreenFixtures.resources()
        let plate = Rect(x: 100, y: 100, width: 400, height: 60)
        func ink(_ label: String, screenRTL: Bool) throws -> (min: Int, max: Int) {
            let buffer = try PixelBuffer(width: 600, height: 260)
            let canvas = Canvas(buffer)
            canvas.clear(.black)
            resources.drawRow(on: canvas, frame: plate, label: label, icon: nil, state: .normal, textSize: 24, reading: screenRTL ? .rightToLeft : .leftToRight)
            var lo = Int.max, hi = Int.min
            for y in 100..<160 { for x in 100..<500 where (buffer[x, y]! >> 16) & 0xFF > 200 { lo = min(lo, x); hi = max(hi, x) } }
            return (lo, hi)
        }
        let hebrew = try ink("קפה", screenRTL: false)
        let latin = try ink("Coffee", screenRTL: true)
        let digits = try ink("123", screenRTL: true)
        #expect(hebrew.min < 160 && hebrew.max < 300, "Hebrew ink \(hebrew)")
        #expect(latin.max > 440 && latin.min > 300, "Latin ink \(latin)")
        // No strong character: the screen's direction decides.
        #expect(digits.max > 440, "digits ink \(digits)")
    }

    @Test func directionDecodesAndMovesTheArcsDefaultEdge() throws {
        let base = """
        [screens.main]
        style = "arc"
        direction = "rtl"
        %EDGE%
        [[screens.main.items]]
        label = "قهوة"
        action = "back"
        """
        let mirrored = check(base.replacingOccurrences(of: "%EDGE%", with: ""))
        #expect(mirrored.isValid, "\(mirrored.report)")
        let screen = try #require(mirrored.config?.screen(named: "main"))
        #expect(screen.direction == .rightToLeft)
        guard case .arc(let arc) = screen.layout else { Issue.record("not an arc"); return }
        #expect(arc.edge == .left)
        let kept = check(base.replacingOccurrences(of: "%EDGE%", with: "edge = \"right\""))
        guard case .arc(let right) = try #require(kept.config?.screen(named: "main")).layout else { Issue.record("not an arc"); return }
        #expect(right.edge == .right)
        let wrong = check(base.replacingOccurrences(of: "rtl", with: "backwards").replacingOccurrences(of: "%EDGE%", with: ""))
        #expect(!wrong.isValid)
        #expect(wrong.report.contains("direction"), "\(wrong.report)")
    }

    @Test func fontByFamilyOrPath() {
        let screen = """
        [screens.main]
        style = "arc"
        [[screens.main.items]]
        label = "x"
        action = "back"
        """
        #expect(check("[theme]\nfont = \"DejaVu Sans\"\n" + screen).isValid)
        #expect(check("[theme]\nfont = \"sans-serif\"\n" + screen).isValid)
        let missing = check("[theme]\nfont = \"No Such Family Anywhere\"\n" + screen)
        #expect(!missing.isValid)
        #expect(missing.report.contains("theme.font") && missing.report.contains("no installed font has this family"), "\(missing.report)")
        let notAFont = check("[theme]\nfont = \"/etc/passwd\"\n" + screen)
        #expect(!notAFont.isValid)
        #expect(notAFont.report.contains("cannot be loaded as a font"), "\(notAFont.report)")
        let emojiOnly = check("[theme]\nfont = \"/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf\"\n" + screen)
        #expect(!emojiOnly.isValid)
    }

    @Test func checkConfigNamesCodePointsNoFontHas() {
        let c = check("""
        [screens.main]
        style = "list"
        title = "咖啡 ☕ قهوة"
        [[screens.main.sections]]
        title = "Σύστημα"
        [[screens.main.sections.items]]
        label = "Unassigned \\u0378 here"
        action = "back"
        [[screens.main.sections.items]]
        label = "👩‍👩‍👧 🇩🇪 कॉफ़ी"
        action = "back"
        """)
        #expect(c.isValid, "\(c.report)")
        let warnings = c.problems.map(\.description)
        #expect(warnings.count == 1, "\(c.report)")
        #expect(warnings.first?.contains("screens.main.sections[0].items[0].label") == true, "\(c.report)")
        #expect(warnings.first?.contains("U+0378") == true, "\(c.report)")
    }

    @Test func overLongLabelsAreSaidToBeCut() {
        let long = String(repeating: "ب", count: 10_000)
        let c = check("""
        [screens.main]
        style = "arc"
        [[screens.main.items]]
        label = "\(long)"
        action = "back"
        """)
        #expect(c.isValid)
        #expect(c.report.contains("10000 characters long; only the first 1024 are drawn"), "\(c.report)")
    }
}
