// swift-tools-version: 6.0
// Swift 6.0.3 (Debian 13's swiftlang, amd64 and arm64) and 6.1 or later both build this package.
// swift-property-based 2.0.1 declares tools 6.1, so Swift 6.0 cannot resolve it: the property
// tests (GeometryTests, LayoutCoreTests, one in KioskTests) are built by 6.1 and later only.
import PackageDescription

let package = Package(
    name: "Kiosk",
    products: [
        .library(name: "LayoutCore", targets: ["LayoutCore"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
        .library(name: "Raster", targets: ["Raster"]),
        .executable(name: "kiosk", targets: ["KioskCLI"]),
        .executable(name: "kiosk-preview", targets: ["kiosk-preview"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // FreeType and libpng, found through pkg-config; nothing but a module map and a shim header.
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // librsvg and cairo: SVG icons rendered at the size they are drawn (Raster's SVGDocument),
        // opened when the first SVG is parsed, not linked (Sources/CRsvg/include/CRsvg.h).
        .target(name: "CRsvg", dependencies: ["CDynamicLibrary"]),
        // HarfBuzz (shaping), FriBidi (bidi ordering), fontconfig (font lookup and fallback).
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // Text in every language: fonts and their fallbacks, shaping, bidi, glyph caches, drawing on a Canvas.
        .target(
            name: "Text",
            dependencies: ["Geometry", "Raster", "CFreeType", "CHarfBuzz", "CFriBidi", "CFontconfig"]
        ),
        .testTarget(
            name: "TextTests",
            dependencies: ["Text", "Raster", "Geometry", "TestSupport"]
        ),
        // A vector multiply-high (one instruction) that Swift's SIMD types cannot spell.
        .systemLibrary(name: "CSIMDBuiltins"),
        // Plain geometry both sides share: points, sizes, rectangles (continuous and whole-pixel),
        // angles, affine maps, rounded rectangles, display rotation. No Foundation, no C.
        .target(
            name: "Geometry",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        // The software rasterizer: buffers, coverage, blending, patterns, text, images, damage.
        .target(
            name: "Raster",
            dependencies: ["Geometry", "CPNG", "CRsvg", "CSIMDBuiltins", .product(name: "RealModule", package: "swift-numerics")],
            // Optimised in debug builds too: the tests draw thousands of frames (the generated
            // configs' layouts), and unoptimised blending loops make that ten times slower.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .testTarget(
            name: "RasterTests",
            dependencies: ["Raster", "Text", "Geometry", "ReferenceScene", "TestSupport"],
            exclude: ["Golden", "Fixtures"]
        ),
        // Reference scene S1 (DESIGN.md §5): a fixture for the golden tests and benchmarks, not in any product.
        .target(
            name: "ReferenceScene",
            dependencies: ["Geometry", "Raster", "Text", .product(name: "RealModule", package: "swift-numerics")]
        ),
        // libdrm, and libinput with libudev: module maps and one shim header each.
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),
        .systemLibrary(
            name: "CInput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        // Linux headers that Glibc's module leaves out (epoll, signalfd, timerfd, inotify, VT, evdev).
        .systemLibrary(name: "CLinux"),
        // Non-temporal stores (a compiler builtin Swift cannot spell) for writing scanout memory.
        .systemLibrary(name: "CStreamingStores"),
        // dlopen and dlsym for the optional libraries below, in one place.
        .target(name: "CDynamicLibrary"),
        // libmosquitto: the MQTT client of `[mqtt]` (Home Assistant discovery, commands, state),
        // opened when a config asks for a broker, not linked (Sources/CMosquitto/include/CMosquitto.h).
        // Debian: libmosquitto-dev for its headers.
        .target(name: "CMosquitto", dependencies: ["CDynamicLibrary"]),
        // libxcrypt (crypt_rn, crypt_gensalt_rn) for PIN hashes in /etc/shadow's format. Debian: libcrypt-dev.
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        // sd-bus (libsystemd) for the control API on the system bus and `kiosk ctl`. Debian: libsystemd-dev.
        .systemLibrary(name: "CSystemdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // One Swift owner per sd-bus connection, message and slot; every call through one function.
        .target(name: "SystemBus", dependencies: ["CSystemdBus"]),
        // Systems: file descriptors, typed syscall errors, the log, directories; the event loop and its sources.
        .target(name: "KioskSystem", dependencies: ["CLinux"]),
        // The config: decoder, validator, reader, `KioskConfig`, rescue config, key bindings, PIN hashes, assets.
        .target(
            name: "KioskConfiguration",
            dependencies: ["KioskSystem", "Geometry", "LayoutCore", "Raster", "Text", "TOML", "CCrypt", "CLinux"]
        ),
        // The display: the `Output` protocol, the DRM/KMS output, the backlight, the headless output.
        .target(
            name: "DRMOutput",
            dependencies: ["KioskSystem", "KioskConfiguration", "Geometry", "Raster", "CDRM", "CInput", "CLinux", "CStreamingStores"]
        ),
        // Input devices: libinput, evdev dials, and routing their events to menu input.
        .target(
            name: "InputSources",
            dependencies: ["KioskSystem", "KioskConfiguration", "DRMOutput", "Geometry", "LayoutCore", "CInput", "CLinux"]
        ),
        // The screens: one menu core specialised by arc, dial and list; transitions. No devices.
        .target(
            name: "MenuScreens",
            dependencies: ["KioskConfiguration", "Geometry", "LayoutCore", "Raster", "Text", "TOML"]
        ),
        // libespeak-ng (speech synthesis) and libasound (ALSA playback): opened when a config turns
        // speech on, not linked (Sources/CEspeak, Sources/CAlsa: the headers say how). Debian:
        // libespeak-ng-dev and libasound2-dev for their headers.
        .target(name: "CEspeak", dependencies: ["CDynamicLibrary"]),
        .target(name: "CAlsa", dependencies: ["CDynamicLibrary"]),
        // The spoken menu: the voice for a text's script, espeak-ng's synthesis and ALSA playback on
        // a thread of their own.
        .target(name: "Speech", dependencies: ["KioskSystem", "CEspeak", "CAlsa"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "KioskSystem", "TestSupport"]),
        // The program: the app, the runtime that drives it, the PIN lock. Tested without a device.
        .target(
            name: "Kiosk",
            dependencies: ["KioskSystem", "KioskConfiguration", "DRMOutput", "InputSources", "MenuScreens", "Geometry", "LayoutCore", "Raster", "Text", "TOML", "CLinux", "Speech", "CMosquitto", "SystemBus"]
        ),
        // A TOML 1.0 parser whose values carry their source positions: pure Swift, no Foundation, no C.
        .target(name: "TOML"),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(name: "KioskSystemTests", dependencies: ["KioskSystem", "CLinux", "TestSupport"]),
        // What each fuzz target checks (config, MQTT, D-Bus, icons), shared by kiosk-fuzz and the tests' corpus replay.
        .target(name: "FuzzHarnesses",
                dependencies: ["Kiosk", "KioskConfiguration", "KioskSystem", "SystemBus", "DRMOutput", "Geometry", "Raster", "Text"]),
        // libFuzzer's entry point (scripts/fuzz); a plain build replays files.
        .executableTarget(name: "kiosk-fuzz", dependencies: ["FuzzHarnesses"]),
        // The `kiosk` executable: argument parsing only.
        .executableTarget(
            name: "KioskCLI",
            dependencies: ["Kiosk", "KioskSystem", "KioskConfiguration", "DRMOutput", "MenuScreens", "Geometry", "LayoutCore", "Raster", "Text", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // SDL2 for the desktop preview only (the device binary never links it): module map and shim header.
        // Not through pkg-config: sdl2.pc's Cflags carry -D_REENTRANT, which SwiftPM refuses with a
        // warning on every build, and SDL needs nothing but the default include path
        // (<SDL2/SDL.h>) and -lSDL2 (the module map). Debian: libsdl2-dev (scripts/apt-packages.txt).
        .systemLibrary(name: "CSDL2"),
        // `kiosk-preview`: the same runtime, screens and reload on a desktop window (SDL2, X11 or Wayland).
        .executableTarget(
            name: "kiosk-preview",
            dependencies: ["Kiosk", "KioskSystem", "KioskConfiguration", "DRMOutput", "InputSources", "Geometry", "Raster", "CSDL2", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "KioskTests",
            dependencies: ["Kiosk", "KioskSystem", "KioskConfiguration", "DRMOutput", "InputSources", "MenuScreens", "Geometry", "LayoutCore", "Raster", "Text", "TOML", "TestSupport", "FuzzHarnesses"],
            exclude: ["Golden", "ConfigFixtures", "StrangerConfigs"]
        ),
        // Shared by the test targets only (never by a product): golden-image comparison, a seeded RNG.
        .target(name: "TestSupport", dependencies: ["Raster"], path: "Tests/TestSupport"),
        // Layouts, scrolling, motion and input interpretation (knobs, gestures): no Foundation, no C, no devices.
        .target(
            name: "LayoutCore",
            dependencies: ["Geometry", .product(name: "RealModule", package: "swift-numerics")]
        ),
        // Benchmarks print figures; they are never part of the tests.
        .executableTarget(
            name: "kiosk-bench",
            dependencies: ["Geometry", "LayoutCore", "Raster", "Text", "ReferenceScene", "Kiosk", "KioskSystem", "KioskConfiguration", "DRMOutput", "MenuScreens", "CFontconfig"]
        ),
    ]
)

#if compiler(>=6.1)
package.dependencies.append(.package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"))
let propertyBased: Target.Dependency = .product(name: "PropertyBased", package: "swift-property-based")
package.targets += [
    .testTarget(name: "GeometryTests", dependencies: ["Geometry", propertyBased]),
    .testTarget(name: "LayoutCoreTests", dependencies: ["Geometry", "LayoutCore", propertyBased]),
]
// StatusReportTests has one property test (#if canImport(PropertyBased)).
package.targets.first { $0.name == "KioskTests" }!.dependencies.append(propertyBased)
#endif
