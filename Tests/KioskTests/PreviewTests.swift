import DRMOutput
import Foundation
import Geometry
import LayoutCore
@testable import Kiosk
@testable import KioskConfiguration
import MenuScreens
import Raster
import Testing

/// The preview is the device: `kiosk render` (`renderPreview`) of a sub-screen, a selection or a
/// locked screen's keypad draws exactly the frame the app draws when a person brings it there
/// with the knob, and its layout report comes from that same drawing.
@Suite struct PreviewTests {
    /// The app driven as the person at the panel does: `inputs` each followed by a second of
    /// frames at 60 Hz, then the frame at rest.
    static func frameReached(_ config: KioskConfig, by inputs: [MenuInput]) throws -> PixelBuffer {
        let h = try KeypadTests.Harness(config)
        h.run(0.5)
        for input in inputs {
            h.app.handle(input, now: h.now)
            h.run(1.0)
        }
        _ = h.app.draw(on: Canvas(h.frame), full: true)
        // As a screenshot has it: through the PNG a preview is written as.
        let scratch = ScratchDirectory()
        try PNGCodec.write(h.frame, to: scratch.path + "/device.png")
        return try PNGCodec.read(path: scratch.path + "/device.png")
    }

    static func preview(_ config: KioskConfig, _ state: PreviewState, width: Int = 800, height: Int = 480) throws -> (PixelBuffer, LayoutReport) {
        let scratch = ScratchDirectory()
        let path = scratch.path + "/preview.png"
        let report = try renderPreview(config, state, width: width, height: height, rotation: .none, to: path)
        return (try PNGCodec.read(path: path), report)
    }

    static func expectSame(_ preview: PixelBuffer, _ device: PixelBuffer, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !preview.hasSamePixels(as: device) else { return }
        let base = "/tmp/kiosk-preview-" + String(what.filter { $0.isLetter || $0.isNumber })
        try? PNGCodec.write(preview, to: base + ".preview.png")
        try? PNGCodec.write(device, to: base + ".device.png")
        let message = "\(what): the preview differs from the device within \(preview.differingBounds(from: device)) "
            + "(\(base).preview.png, \(base).device.png)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// A sub-screen is drawn opened above home, its back button and all, as a press opens it:
    /// it used to be drawn as if it were home (no back button).
    @Test func aSubScreenIsDrawnAsThePanelShowsIt() throws {
        let config = KeypadTests.config(lock: LockConfig())
        var open = config
        open.screens[1].pinHash = nil
        let (preview, report) = try Self.preview(open, PreviewState(screen: "admin"))
        Self.expectSame(preview, try Self.frameReached(open, by: [.command(.select, count: 1)]), "the admin screen")
        let asHome = try Self.preview({ var c = open; c.home = "admin"; return c }(), PreviewState(screen: "admin"))
        #expect(!preview.hasSamePixels(as: asHome.0), "drawn as home: no back button")
        // The layout is that drawing's: the title as drawn beside the back button.
        #expect(report.title?.text == "Admin")
    }

    /// `--select N`: item N selected, as the knob turned N detents leaves it.
    @Test func aSelectionIsDrawnAsTheKnobLeavesIt() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        let (preview, report) = try Self.preview(config, PreviewState(screen: config.home, selection: 2))
        Self.expectSame(preview, try Self.frameReached(config, by: [.command(.next, count: 2)]), "item 2 selected")
        #expect(report.items.filter(\.selected).map(\.index) == [2])
        #expect(throws: PreviewError.self) { try Self.preview(config, PreviewState(screen: config.home, selection: 99)) }
    }

    /// `--keypad`: the keypad a locked screen puts up, as selecting the item that opens it does.
    @Test func aLockedScreensKeypadIsDrawnAsThePanelShowsIt() throws {
        let config = KeypadTests.config()
        let (preview, _) = try Self.preview(config, PreviewState(screen: "admin", keypad: true))
        Self.expectSame(preview, try Self.frameReached(config, by: [.command(.select, count: 1)]), "the admin screen's keypad")
        #expect(throws: PreviewError.self) { try Self.preview(config, PreviewState(screen: "main", keypad: true)) }
    }

    /// `--layout` lists what that drawing drew: the back button, a list's section headers with
    /// their size, each row's column, the title's size; and it parses as JSON.
    @Test func theLayoutListsTheBackButtonHeadersAndColumns() throws {
        let list = ScreenConfig(name: "settings", title: "Settings", layout: .list(ListStyle(columns: 2)),
                                sections: [MenuSection(title: "Network", items: [MenuItem(label: "Wi-Fi", action: .back), MenuItem(label: "Ethernet", action: .back)]),
                                           MenuSection(title: "Sound", items: [MenuItem(label: "Volume", action: .back)])])
        let main = ScreenConfig(name: "main", title: "Home", layout: .list(ListStyle()),
                                sections: [MenuSection(items: [MenuItem(label: "Settings", action: .screen("settings"))])])
        let config = KioskConfig(home: "main", screens: [main, list])
        let (_, report) = try Self.preview(config, PreviewState(screen: "settings"), width: 1280, height: 800)
        let back = try #require(report.back, "no back button reported")
        let title = try #require(report.title)
        #expect(back.rect.maxX < title.rect.minX, "the title starts after the back button: \(back) \(title.rect)")
        #expect(back.text == "‹ Back" && !back.shortened && back.fontSize <= title.fontSize)
        #expect(report.headers.map(\.text) == ["Network", "Sound"])
        #expect(report.headers.allSatisfy { $0.fontSize > 0 && !$0.shortened && $0.fontSize <= title.fontSize })
        #expect(report.items.count == 3 && report.items.allSatisfy { $0.column != nil })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any], "\(report.json)")
        #expect(((json["back"] as? [String: Any])?["rect"] as? [Double])?.count == 4)
        #expect((json["headers"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Network", "Sound"])
        #expect((json["title"] as? [String: Any])?["font_size"] as? Double != nil)
        #expect((json["items"] as? [[String: Any]])?.allSatisfy { $0["column"] is Int } == true)
        let (_, home) = try Self.preview(config, PreviewState(screen: "main"))
        #expect(home.back == nil && home.json.contains("\"back\": null"))
    }
}
