import Raster
import Text

/// What a config's screens draw with, loaded before the screens are built: the theme's font and
/// every image the config names, decoded. A config load (`ConfigReader.load`) decodes them once,
/// validates against them and hands them over with the valid config (`LoadedConfig.assets`);
/// `load` here is for a config that comes without them (tests, the demo, the rescue screen).
/// Loading them is the slow part of a reload, so on reloads it is done off the event loop
/// (`ConfigLoadWorker`), and the screens never read a file while drawing. Not thread-safe (a
/// `Font` fills its glyph cache as it draws): one thread at a time.
public struct LoadedAssets {
    public let font: Font
    /// Decoded images by the image as the config writes it (an absolute path, or an icon name found
    /// as a PNG). One that could not be decoded is
    /// absent and drawn without; its reason is in `problems`.
    public let images: [String: PixelBuffer]
    /// SVG icons (files and icon names) by the icon as the config writes it, rendered at the size drawn.
    public let vectors: [String: VectorIcon]
    /// One line per image left out, for the log.
    public let problems: [String]
    /// Where `vectors` render; nil without SVG icons.
    public let iconRenders: IconRenderService?

    /// The images one config names, each counted once, may have at most this many pixels together
    /// (64 MiB decoded; one image is at most `PNGCodec.maximumPixels`, 16 MiB). `kiosk check-config`
    /// refuses a config beyond it from the images' headers, before decoding them.
    public static let maximumTotalPixels = 16 * 1024 * 1024

    public init(font: Font, images: [String: PixelBuffer] = [:], vectors: [String: VectorIcon] = [:], problems: [String] = [],
                iconRenders: IconRenderService? = nil) {
        self.font = font
        self.images = images
        self.vectors = vectors
        self.problems = problems
        self.iconRenders = iconRenders
    }

    /// The decoded image at `path`, or nil when it could not be decoded or the config does not name it.
    public func image(_ path: String) -> PixelBuffer? { images[path] }

    /// The SVG icon the config writes as `icon`, or nil (a PNG, or not loaded).
    public func vector(_ icon: String) -> VectorIcon? { vectors[icon] }

    /// SVG renders made so far by all of `vectors` (see `VectorIcon.rasterizations`).
    public var iconRasterizations: Int { vectors.values.reduce(0) { $0 + $1.rasterizations } }

    /// Loads the font `fontPath` (a file or a family name; a failure is an error: nothing can be drawn without it) and
    /// decodes `imagePaths` (a failure leaves that image out). `shouldStop` is asked before each
    /// image; once it says yes, the rest are skipped and the result is incomplete, for a caller
    /// who will throw it away (a newer file superseded it).
    public static func load(fontPath: String, imagePaths: [String], shouldStop: () -> Bool = { false }) throws(TextError) -> LoadedAssets {
        let font = try Font(named: fontPath)
        var images: [String: PixelBuffer] = [:]
        var problems: [String] = []
        for path in imagePaths where images[path] == nil {
            if shouldStop() { break }
            do {
                images[path] = try PNGCodec.read(path: path)
            } catch {
                problems.append("image \(path) left out: \(error)")
            }
        }
        return LoadedAssets(font: font, images: images, problems: problems)
    }

    /// The theme's font and every image and icon `config` names (SVGs and icon names too, as a
    /// config load decodes them: `ConfigAssets`); what could not be loaded is left out and logged.
    public static func load(for config: KioskConfig, shouldStop: () -> Bool = { false }) throws(TextError) -> LoadedAssets {
        let font = try Font(named: config.theme.font)
        let decoded = ConfigAssets.decode(config, shouldStop: shouldStop)
        return LoadedAssets(font: font, images: decoded.images, vectors: decoded.vectors,
                            problems: decoded.imageProblems.merging(decoded.iconWarnings) { a, _ in a }.sorted { $0.key < $1.key }
                                .map { "image \($0.key) left out: \($0.value)" },
                            iconRenders: decoded.iconRenders)
    }
}

extension KioskConfig {
    /// Every item icon as written (file paths made absolute, icon names as they are), each once.
    public var iconKeys: Set<String> {
        Set(screens.flatMap { $0.items.compactMap(\.icon) })
    }

    /// Every image the screens can draw, each once, in the file's order: background tiles (only
    /// where the pattern is "image") and item icons.
    public var imagePaths: [String] {
        var paths: [String] = []
        var seen: Set<String> = []
        func add(_ path: String?) {
            if let path, seen.insert(path).inserted { paths.append(path) }
        }
        func addTile(_ background: BackgroundConfig) {
            if background.pattern == .image { add(background.image) }
        }
        addTile(background)
        for screen in screens {
            addTile(screen.background)
            for item in screen.items { add(item.icon) }
        }
        return paths
    }
}
