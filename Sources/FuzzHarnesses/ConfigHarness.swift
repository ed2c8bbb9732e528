import Geometry
import Glibc
import KioskConfiguration
import Raster
import Text

/// Runs the whole config reader on `bytes` (UTF-8 check, TOML parse, decode, validate) and traps
/// if the outcome is incoherent, so that libFuzzer reports it like a crash: valid exactly when
/// there is no error, every message one line naming the file, a valid config has its home screen
/// and no screen without items. Then the text path: every title, section header and label of an
/// accepted config, and the raw bytes themselves decoded as UTF-8 (invalid sequences become
/// U+FFFD), are shaped, truncated, checked for missing glyphs and drawn (`checkTextPath`).
/// The config when it is accepted.
@discardableResult
public func checkConfigCoherently(_ bytes: [UInt8]) -> KioskConfig? {
    let config = checkConfigReader(bytes)
    if let config {
        for screen in config.screens {
            if let title = screen.title { checkTextPath(title) }
            for section in screen.sections {
                if let title = section.title { checkTextPath(title) }
                for item in section.items { checkTextPath(item.label) }
            }
        }
    }
    checkTextPath(String(decoding: bytes, as: UTF8.self))
    return config
}

/// The config reader's part of `checkConfigCoherently`; the config when it is accepted.
public func checkConfigReader(_ bytes: [UInt8]) -> KioskConfig? {
    let check = ConfigReader.check(bytes: bytes, file: "fuzz.toml", baseDirectory: "/nonexistent/kiosk-fuzz", searchPath: "/usr/bin:/bin")
    precondition(check.isValid == !check.problems.hasErrors, "valid with errors, or invalid without one")
    for problem in check.problems {
        let line = problem.description
        precondition(line.hasPrefix("fuzz.toml") && !line.contains("\n"), "malformed problem: \(line)")
    }
    if let config = check.config {
        precondition(config.screen(named: config.home) != nil, "valid config without its home screen")
        precondition(config.screens.allSatisfy { !$0.items.isEmpty }, "valid config with an empty screen")
    }
    return check.config
}

/// One font for the whole run, as the kiosk has one theme font: DejaVu Sans with fontconfig's
/// fallbacks and colour emoji. Its caches fill as inputs come (bounded: `Font.layoutCacheLimit`
/// strings; glyph bitmaps per glyph and size, and only two sizes are used here).
nonisolated(unsafe) let fuzzFont: Font? = try? Font(path: Font.dejaVuSansPath)
/// A small frame to draw into: most of a long text falls outside it, which is clipped.
nonisolated(unsafe) let fuzzFrame: PixelBuffer? = try? PixelBuffer(width: 96, height: 40)

/// Shapes, truncates, measures and draws `text` at two sizes and traps on an incoherent result:
/// at most `Font.maximumScalars` code points shaped, finite positions, every glyph from a face the
/// font has and pointing into the shaped text, a truncation that is the text itself or fits
/// (a prefix with an ellipsis, or nothing).
public func checkTextPath(_ text: String) {
    guard let font = fuzzFont, let frame = fuzzFrame else { return }
    let canvas = Canvas(frame)
    let faceCount = font.facePaths.count
    for (size, direction) in [(11.0, TextDirection.auto), (24.0, TextDirection.rightToLeft)] {
        let line = font.shape(text, size: size, direction: direction)
        // Not `scalarCount <= text.unicodeScalars.count`: the shape cache's key compares strings as
        // Swift does, by canonical equivalence, so "e\u{301}" shaped first answers for "é" too
        // (2 code points for a 1-code-point string; see BENCHMARKS.md, Text).
        precondition(line.scalarCount <= Font.maximumScalars, "shaped too much")
        precondition(line.width.isFinite && line.width >= 0, "width \(line.width)")
        let faces = font.facePaths.count
        precondition(faces >= faceCount, "faces lost")
        for g in line.glyphs {
            precondition(g.face >= 0 && g.face < faces, "glyph of face \(g.face) of \(faces)")
            precondition(g.cluster >= 0 && g.cluster < line.scalarCount, "cluster \(g.cluster) of \(line.scalarCount)")
            precondition(g.x.isFinite && g.y.isFinite && g.advance.isFinite, "glyph position")
        }
        let maxWidth = 4 * size
        let cut = font.truncated(text, size: size, maxWidth: maxWidth)
        precondition(cut == text || cut.isEmpty || cut.hasSuffix("\u{2026}") || cut.hasSuffix("..."), "truncation without ellipsis")
        precondition(font.measure(cut, size: size) <= maxWidth || cut == text, "truncation does not fit")
        canvas.drawText(text, font: font, size: size, at: Point(x: 2, y: 30), color: .white, maxWidth: 90, direction: direction)
        canvas.drawText(text, font: font, size: size, at: Point(x: 94, y: 30), color: .white, opacity: 0.5, alignment: .right)
    }
    // Rotated text goes through the glyph outlines and the path rasterizer (dial labels).
    canvas.drawText(text, font: font, size: 11, at: Point(x: 48, y: 20), color: .white, alignment: .center,
                    maxWidth: 90, rotation: Angle(degrees: 30))
    let missing = font.missingScalars(in: text)
    precondition(missing.allSatisfy { !font.hasGlyph(for: $0) }, "missing scalar that has a glyph")
}
