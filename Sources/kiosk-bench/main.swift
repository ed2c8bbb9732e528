#if canImport(Glibc)
import Glibc
#endif

// kiosk-bench: prints benchmark figures. `kiosk-bench [SUITE...]`, all suites by default.
// Run it as `swift run -c release kiosk-bench`; debug builds give meaningless figures.

let suites: [(name: String, run: () -> Void)] = [
    ("layout", runLayoutBenchmarks),
    ("screen-layout", runScreenLayoutBenchmarks),
    ("raster", runRasterBenchmarks),
    ("scanout", runScanoutBenchmarks),
    ("text", runTextBenchmarks),
    ("text-startup", runTextStartupBenchmarks),
]

/// Suite names; `--png DIR` (read by the raster suite) is an option, not a suite.
var requested = Array(CommandLine.arguments.dropFirst())
// One fresh process's text start-up figures, for the text-startup suite (which runs this program so).
if requested == ["--text-startup-once"] {
    runTextStartupOnce()
    exit(0)
}
// Nine labels drawn in a loop, for a profiler (see runTextLabelsLoop).
if requested.first == "--text-labels-loop" {
    runTextLabelsLoop(Array(requested.dropFirst()))
    exit(0)
}
// Frames of scene S1 and nothing else, for callgrind (see runS1Frames).
if requested.first == "--s1-frames" {
    runS1Frames(Array(requested.dropFirst()))
    exit(0)
}
// Config loads as a reload does them, for reload time and peak RSS (see runConfigLoads).
if requested.first == "--config-loads" {
    runConfigLoads(Array(requested.dropFirst()))
    exit(0)
}
// The event loop's first frame after a reload, icons rasterized by the load or not (see runReloadFrame).
if requested.first == "--reload-frame" {
    runReloadFrame(Array(requested.dropFirst()))
    exit(0)
}
// Oversized requests over D-Bus and MQTT against a running kiosk (see runHostileRequestBenchmark).
if requested.first == "--hostile-requests" {
    runHostileRequestBenchmark(Array(requested.dropFirst()))
    exit(0)
}
// Its D-Bus sender, a process of its own.
if requested.first == "--dbus-call" {
    runDBusCall(Array(requested.dropFirst()))
    exit(0)
}
// CPU of live values refreshing in a running kiosk (see runLiveValueBenchmark).
if requested.first == "--live-values" {
    runLiveValueBenchmark(Array(requested.dropFirst()))
    exit(0)
}
if let i = requested.firstIndex(of: "--png") { requested.removeSubrange(i..<min(i + 2, requested.count)) }
if requested.contains("--help") || requested.contains("-h") {
    print("usage: kiosk-bench [\(suites.map(\.name).joined(separator: "|"))]... [--png DIR]  (all suites by default; --png writes the raster suite's frames)")
} else {
    let unknown = requested.filter { name in !suites.contains { $0.name == name } }
    if !unknown.isEmpty {
        print("kiosk-bench: unknown suite \(unknown.joined(separator: ", ")); known: \(suites.map(\.name).joined(separator: ", "))")
        exit(2)
    }
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release kiosk-bench` for real figures")
    #endif
    for suite in suites where requested.isEmpty || requested.contains(suite.name) {
        print("== \(suite.name)")
        suite.run()
    }
}
