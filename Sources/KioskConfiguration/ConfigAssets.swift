import Glibc
import KioskSystem
import Raster
import Text

/// The theme's font and every image one config names, decoded once per load, each with the reason
/// it could not be when it could not: the validator reports those reasons (its font and image
/// errors come from here, not from loading the files again), and a valid config's screens draw
/// with what was decoded (`loaded`). `ConfigReader.load` makes it between decoding and validating;
/// `kiosk check-config`, `kiosk render` and the running kiosk's start-up and reloads all go
/// through it.
struct ConfigAssets {
    /// The theme's font when it loaded.
    let font: Font?
    /// Why the theme's font cannot be used, worded for `theme.font`.
    let fontProblem: String?
    /// Decoded images by the image as the config writes it (an absolute path, or an icon name found as a PNG).
    let images: [String: PixelBuffer]
    /// SVG icons (files, and icon names found in a theme) by the icon as the config writes it.
    let vectors: [String: VectorIcon]
    /// Where they render (nil when the config has none).
    var iconRenders: IconRenderService? = nil
    /// Why each image that was not decoded is unusable, worded for the key that names it.
    let imageProblems: [String: String]
    /// False when `shouldStop` cut the decoding short: then some images are in neither dictionary.
    let complete: Bool
    /// Icon names no installed theme has: a warning, not an error (a device's themes may differ
    /// from the author's machine), and the item is drawn without its icon.
    var iconWarnings: [String: String] = [:]

    /// What the screens draw with; nil without a font.
    var loaded: LoadedAssets? { font.map { LoadedAssets(font: $0, images: images, vectors: vectors, iconRenders: iconRenders) } }

    /// The side an SVG icon is rendered at once when it loads, timed against `svgRenderBudget`: about
    /// as large as a row icon is drawn on a 1080-line panel (58 px at 9 rows), twice over.
    static let svgTrialSide = 128
    /// Longest trial render one SVG icon may take, in the SVG worker's CPU time; a slower one is
    /// refused (a later render at a larger drawn size costs more). CPU time, not wall time, so
    /// that a config does not turn invalid because the machine is busy or the load runs at a low
    /// priority; wide enough for a slow board or an emulated one (Adwaita's icons take ~1 ms here
    /// and up to 0.6 s at 256 px under qemu's TCG); the hostile cases are refused from the file
    /// before this, and the worker's own CPU limit ends what runs longer still.
    static let svgRenderBudget = 3.0
    /// Longest all of a config's SVG icons may take to load together (CPU time); the rest are refused.
    static let svgTotalBudget = 15.0
    /// librsvg and cairo set themselves up on their first render (fonts, caches): done once per
    /// worker on a one-pixel document, untimed, so that the first icon is not charged for it.
    static let svgWarmUpDocument = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>"#.utf8)

    /// Loads `config`'s font as the kiosk will (a file, checked as a readable regular file first,
    /// or a family name fontconfig must have), then each image of `config.imagePaths` once, in the
    /// file's order: read whole (at most `PNGCodec.maximumFileBytes`), its header read here (not by
    /// libpng), so that one too large to decode is refused without decoding it; then its size
    /// against what all the config's images may take together; then a whole decode in the SVG
    /// worker (libpng parses nothing a config names in the kiosk's process), which finds damaged
    /// pixel data. `shouldStop` is asked before each image.
    ///
    /// Item icons may also be SVG files or icon names (`IconTheme`): each is found, read (at most
    /// `SVGDocument.maximumBytes`) and checked here without librsvg (`SVGDocument.check`), then
    /// parsed by librsvg and rendered once at `svgTrialSide` in the SVG worker, whose CPU time for
    /// the two (`cost` turns it into the time charged: tests charge more) counts against
    /// `svgRenderBudget` and `svgTotalBudget`.
    static func decode(_ config: KioskConfig, shouldStop: () -> Bool = { false },
                       cost: (Double) -> Double = { $0 }, iconTheme: IconTheme = IconTheme()) -> ConfigAssets {
        var renderer: SVGRenderer?
        // One worker per load, for the SVGs and the PNGs: started when the first needs it, or
        // before the font when the config names images, so that it starts up while fontconfig does.
        func worker() -> SVGRenderer {
            if let renderer { return renderer }
            let made = SVGRenderer()
            renderer = made
            return made
        }
        if !config.imagePaths.isEmpty { worker().start() }
        var font: Font?
        var fontProblem: String?
        let name = config.theme.font
        if Font.namesFile(name), let problem = FileCheck.readableProblem(name) {
            fontProblem = problem
        } else {
            do {
                font = try Font(named: name)
            } catch {
                fontProblem = Font.namesFile(name) ? "\"\(name)\" cannot be loaded as a font: \(error)" : "\(error)"
            }
        }
        var images: [String: PixelBuffer] = [:]
        var vectors: [String: VectorIcon] = [:]
        var problems: [String: String] = [:]
        var warnings: [String: String] = [:]
        var pixels = 0
        var svgTime = 0.0
        var service: IconRenderService?
        var warmedUp = false
        var themes = iconTheme
        let icons = config.iconKeys
        for key in config.imagePaths {
            if shouldStop() {
                return ConfigAssets(font: font, fontProblem: fontProblem, images: images, vectors: vectors, iconRenders: service, imageProblems: problems,
                                    complete: false, iconWarnings: warnings)
            }
            var path = key
            if icons.contains(key), IconTheme.isName(key) {
                guard let found = themes.find(key, theme: config.theme.iconTheme) else {
                    let searched = themes.chain(config.theme.iconTheme)
                    warnings[key] = "no icon named \"\(key)\" (nor \"\(key)-symbolic\") in the icon themes "
                        + (searched.isEmpty ? "(none is installed under \(themes.baseDirectories.joined(separator: ", ")))" : searched.joined(separator: ", "))
                        + "; the item is shown without an icon (give a name from /usr/share/icons, Debian: adwaita-icon-theme, or a .png/.svg file)"
                    continue
                }
                path = found
            }
            if icons.contains(key), path.lowercased().hasSuffix(".svg") {
                if let problem = FileCheck.readableProblem(path) {
                    problems[key] = problem
                    continue
                }
                guard svgTime <= svgTotalBudget else {
                    problems[key] = "\"\(path)\" left out: the SVG icons before it took \(svgTime.formatted2) s to render, "
                        + "more than the \(svgTotalBudget) s a config's icons may take together"
                    continue
                }
                let data: [UInt8]
                do {
                    data = try SVGDocument.readFile(path)
                    try SVGDocument.check(data, name: path)
                } catch {
                    problems[key] = "\"\(path)\" cannot be loaded as an SVG: \(error)"
                    continue
                }
                if !warmedUp {
                    // librsvg's first render sets up what every later one uses: not timed against this icon.
                    if case .success(let warm) = worker().load(svgWarmUpDocument, name: "warm-up") { _ = worker().render(warm.id, side: 1) }
                    warmedUp = true
                }
                switch worker().load(data, name: path) {
                case .failure(let error):
                    problems[key] = "\"\(path)\" cannot be loaded as an SVG: \(error)"
                case .success(let loaded):
                    let trial = worker().render(loaded.id, side: svgTrialSide)
                    let took = cost(loaded.cpuSeconds + trial.cpuSeconds)
                    svgTime += took
                    if let problem = trial.problem {
                        problems[key] = "\"\(path)\" cannot be loaded as an SVG: \(problem)"
                    } else if took > svgRenderBudget {
                        problems[key] = "\"\(path)\" takes \(took.formatted2) s to render at \(svgTrialSide)x\(svgTrialSide), "
                            + "more than the \(svgRenderBudget) s an icon may take; simplify it"
                    } else {
                        if service == nil { service = IconRenderService(renderer: worker()) }
                        vectors[key] = VectorIcon(service: service!, document: loaded.id, symbolic: path.lowercased().hasSuffix("-symbolic.svg"))
                    }
                }
                continue
            }
            if let problem = FileCheck.readableProblem(path) {
                problems[key] = problem
                continue
            }
            let bytes: [UInt8]
            let header: PNGCodec.Header
            do {
                bytes = try PNGCodec.readFile(path)
                header = try PNGCodec.header(of: bytes, name: path)
            } catch {
                problems[key] = describe(error, path: path)
                continue
            }
            pixels += header.width * header.height
            if pixels > LoadedAssets.maximumTotalPixels {
                problems[key] = "\"\(path)\" (\(header.width)x\(header.height)) brings the images this config names to \(pixels) pixels, "
                    + "more than the \(LoadedAssets.maximumTotalPixels) (\((LoadedAssets.maximumTotalPixels * 4) >> 20) MiB decoded) "
                    + "the kiosk holds; use smaller images"
                continue
            }
            switch worker().decodePNG(bytes, name: path) {
            case .success(let image): images[key] = image
            case .failure(let error): problems[key] = describe(error, path: path)
            }
        }
        return ConfigAssets(font: font, fontProblem: fontProblem, images: images, vectors: vectors, iconRenders: service, imageProblems: problems,
                            complete: true, iconWarnings: warnings)
    }

    /// A size refusal names the file itself; anything else says the file is not a usable PNG.
    private static func describe(_ error: RasterError, path: String) -> String {
        if case .imageTooLarge = error { return error.description }
        return "\"\(path)\" cannot be loaded as a PNG: \(error)"
    }
}

private extension Double {
    /// Two decimals, for messages.
    var formatted2: String {
        let hundredths = Int((self * 100).rounded())
        let cents = hundredths % 100
        return "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}

/// Why a file the config names cannot be used, before anything tries to open it: the font, the
/// images (`ConfigAssets`) and the programs (`ConfigValidator`).
enum FileCheck {
    /// Why `path` is not a readable regular file, or nil.
    static func readableProblem(_ path: String) -> String? {
        regularFileProblem(path, access: R_OK) { "is not readable: \(String(cString: strerror($0)))" }
    }

    /// Why `path` cannot be executed, or nil.
    static func executableProblem(_ path: String) -> String? {
        regularFileProblem(path, access: X_OK) { _ in "is not executable" }
    }

    /// Why `path` is not a regular file that `access(2)` allows `mode` on, or nil; `denied`
    /// words a refusal from its errno.
    private static func regularFileProblem(_ path: String, access mode: Int32, denied: (Int32) -> String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = errno
            guard error == ENOENT else { return "\"\(path)\": \(String(cString: strerror(error)))" }
            if let dangling = ConfigSource.danglingLink(in: path) {
                return "\"\(path)\" does not exist: \(dangling.link) is a symlink to \"\(dangling.target)\", which does not exist"
            }
            return "\"\(path)\" does not exist"
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return "\"\(path)\" is not a regular file" }
        guard access(path, mode) == 0 else { return "\"\(path)\" \(denied(errno))" }
        return nil
    }
}
