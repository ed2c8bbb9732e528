import Glibc
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
    /// Decoded images by the absolute path the config gives.
    let images: [String: PixelBuffer]
    /// Why each image that was not decoded is unusable, worded for the key that names it.
    let imageProblems: [String: String]
    /// False when `shouldStop` cut the decoding short: then some images are in neither dictionary.
    let complete: Bool

    /// What the screens draw with; nil without a font.
    var loaded: LoadedAssets? { font.map { LoadedAssets(font: $0, images: images) } }

    /// Loads `config`'s font as the kiosk will (a file, checked as a readable regular file first,
    /// or a family name fontconfig must have), then each image of `config.imagePaths` once, in the
    /// file's order: its header first, so that one too large to decode is refused without decoding
    /// it; then its size against what all the config's images may take together; then a whole
    /// decode, which finds damaged pixel data. `shouldStop` is asked before each image.
    static func decode(_ config: KioskConfig, shouldStop: () -> Bool = { false }) -> ConfigAssets {
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
        var problems: [String: String] = [:]
        var pixels = 0
        for path in config.imagePaths {
            if shouldStop() {
                return ConfigAssets(font: font, fontProblem: fontProblem, images: images, imageProblems: problems, complete: false)
            }
            if let problem = FileCheck.readableProblem(path) {
                problems[path] = problem
                continue
            }
            let header: PNGCodec.Header
            do {
                header = try PNGCodec.header(path: path)
            } catch {
                problems[path] = describe(error, path: path)
                continue
            }
            pixels += header.width * header.height
            if pixels > LoadedAssets.maximumTotalPixels {
                problems[path] = "\"\(path)\" (\(header.width)x\(header.height)) brings the images this config names to \(pixels) pixels, "
                    + "more than the \(LoadedAssets.maximumTotalPixels) (\((LoadedAssets.maximumTotalPixels * 4) >> 20) MiB decoded) "
                    + "the kiosk holds; use smaller images"
                continue
            }
            do {
                images[path] = try PNGCodec.read(path: path)
            } catch {
                problems[path] = describe(error, path: path)
            }
        }
        return ConfigAssets(font: font, fontProblem: fontProblem, images: images, imageProblems: problems, complete: true)
    }

    /// A size refusal names the file itself; anything else says the file is not a usable PNG.
    private static func describe(_ error: RasterError, path: String) -> String {
        if case .imageTooLarge = error { return error.description }
        return "\"\(path)\" cannot be loaded as a PNG: \(error)"
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
