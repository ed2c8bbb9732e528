import Foundation
import Glibc
@testable import KioskConfiguration
@testable import KioskSystem
import Raster
import TestSupport
import Testing
@testable import Kiosk

/// A fleet's config releases on disk, as packaging/ansible lays them out: `releases/N/` holds
/// a `kiosk.toml` and its icon, and `current` is a symlink to one of them, swapped by renaming a
/// new symlink over it (`ln -s releases/N tmp && mv -T tmp current`).
final class ReleaseTree {
    let root: String
    var config: String { root + "/current/kiosk.toml" }

    init() {
        var template = Array("/tmp/kiosk-release-test-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        mkdir(root + "/releases", 0o755)
    }

    deinit { _ = try? FileManager.default.removeItem(atPath: root) }

    func directory(_ release: String) -> String { root + "/releases/" + release }

    /// A release whose main screen is titled `title` and whose one icon is a 4x4 PNG of `color`.
    func add(_ release: String, title: String, color: UInt32) throws {
        let dir = directory(release)
        mkdir(dir, 0o755)
        let icon = try PixelBuffer(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { icon.setPixel(x: x, y: y, color) } }
        try PNGCodec.write(icon, to: dir + "/icon.png")
        write(dir + "/kiosk.toml", Self.text(title: title))
    }

    static func text(title: String) -> String {
        minimalConfig().replacingOccurrences(of: "[screens.main]", with: "[screens.main]\ntitle = \"\(title)\"")
            .replacingOccurrences(of: "label = \"Hello\"", with: "label = \"Hello\"\nicon = \"icon.png\"")
    }

    func write(_ path: String, _ text: String) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "could not write \(path)")
    }

    /// Points `current` at `target` the way the role does: a new symlink renamed over the old one.
    func swap(to target: String) {
        unlink(root + "/current.tmp")
        #expect(symlink(target, root + "/current.tmp") == 0)
        #expect(rename(root + "/current.tmp", root + "/current") == 0)
    }

    /// The colour of the icon a load decoded, and the path it was decoded from.
    static func icon(_ loaded: LoadedConfig) -> (path: String, color: UInt32?)? {
        guard let (path, image) = loaded.assets?.images.first else { return nil }
        return (path, image[0, 0])
    }
}

@Suite struct ConfigReleaseTests {
    static let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF

    /// The symlink is swapped after the TOML was read and before the icon is decoded: the load
    /// still takes the icon from the release whose TOML it read, never new text with old icons.
    @Test func aLoadThatBeganInOneReleaseReadsThatReleaseWhole() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: Self.red)
        try tree.add("2", title: "Two", color: Self.blue)
        tree.swap(to: "releases/1")
        let reader = ConfigReader(path: tree.config)
        var swapped = false
        let first = LoadedConfig.load(using: reader) {
            if !swapped { tree.swap(to: "releases/2"); swapped = true }
            return false
        }
        #expect(swapped)
        #expect(first.check.config?.screens.first?.title == "One", "\(first.check.report)")
        #expect(first.check.source == tree.directory("1") + "/kiosk.toml")
        let firstIcon = try #require(ReleaseTree.icon(first))
        #expect(firstIcon.path == tree.directory("1") + "/icon.png")
        #expect(firstIcon.color == Self.red, "the icon came from the next release")

        let second = LoadedConfig.load(using: reader)
        #expect(second.check.config?.screens.first?.title == "Two")
        #expect(second.check.source == tree.directory("2") + "/kiosk.toml")
        #expect(ReleaseTree.icon(second)?.color == Self.blue)
    }

    /// Two releases with the same TOML and different icons: the reader's parse cache must not
    /// hand the second the first one's (absolute) icon paths.
    @Test func theSameTextInTheNextReleaseNamesThatReleasesIcons() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "Same", color: Self.red)
        try tree.add("2", title: "Same", color: Self.blue)
        tree.swap(to: "releases/1")
        let reader = ConfigReader(path: tree.config)
        #expect(LoadedConfig.load(using: reader).check.config?.imagePaths == [tree.directory("1") + "/icon.png"])
        tree.swap(to: "releases/2")
        let next = LoadedConfig.load(using: reader)
        #expect(next.check.config?.imagePaths == [tree.directory("2") + "/icon.png"])
        #expect(ReleaseTree.icon(next)?.color == Self.blue)
    }

    @Test func aDanglingCurrentIsAClearProblem() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: Self.red)
        tree.swap(to: "releases/9")
        let check = ConfigReader(path: tree.config, displayName: "kiosk.toml").check()
        #expect(!check.isValid)
        #expect(check.report == "kiosk.toml: cannot read the file: \(tree.root)/current is a symlink to \"releases/9\", which does not exist",
                "\(check.report)")
    }

    @Test func aMissingOrDanglingIconInABundleIsAnError() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: Self.red)
        let dir = tree.directory("1")
        unlink(dir + "/icon.png")
        let missing = ConfigReader(path: dir + "/kiosk.toml", displayName: "kiosk.toml").check()
        #expect(!missing.isValid)
        #expect(missing.report == "kiosk.toml:7:8: screens.main.items[0].icon: \"\(dir)/icon.png\" does not exist", "\(missing.report)")
        #expect(symlink("../shared/icon.png", dir + "/icon.png") == 0)
        let dangling = ConfigReader(path: dir + "/kiosk.toml", displayName: "kiosk.toml").check()
        #expect(dangling.report == "kiosk.toml:7:8: screens.main.items[0].icon: \"\(dir)/icon.png\" does not exist: "
                + "\(dir)/icon.png is a symlink to \"../shared/icon.png\", which does not exist", "\(dangling.report)")
    }
}

/// The watcher and the config service on a real directory and a real event loop.
@Suite(.serialized) struct ConfigSwapWatchTests {
    /// Whether `watcher` has events within `ms` and they concern the config.
    static func changed(_ watcher: ConfigWatcher, within ms: Int32 = Patience.milliseconds) -> Bool {
        var pfd = pollfd(fd: watcher.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, ms) == 1 else { return false }
        return watcher.drain()
    }

    @Test func aSwapIsNoticedAndTheWatchFollowsIt() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: ConfigReleaseTests.red)
        try tree.add("2", title: "Two", color: ConfigReleaseTests.blue)
        tree.swap(to: "releases/1")
        let watcher = try ConfigWatcher(path: tree.config)
        // A release being staged beside it is not a change.
        try tree.add("3", title: "Three", color: ConfigReleaseTests.red)
        #expect(!Self.changed(watcher, within: 200))

        tree.swap(to: "releases/2")
        #expect(Self.changed(watcher))
        // The old release is no longer watched: rewriting or removing it changes nothing.
        tree.write(tree.directory("1") + "/kiosk.toml.new", ReleaseTree.text(title: "Old"))
        rename(tree.directory("1") + "/kiosk.toml.new", tree.directory("1") + "/kiosk.toml")
        try FileManager.default.removeItem(atPath: tree.directory("1"))
        #expect(!Self.changed(watcher, within: 200))
        // The new one is: a file renamed over inside it.
        tree.write(tree.directory("2") + "/kiosk.toml.new", ReleaseTree.text(title: "Two again"))
        rename(tree.directory("2") + "/kiosk.toml.new", tree.directory("2") + "/kiosk.toml")
        #expect(Self.changed(watcher))

        // Dangling, then good again: both noticed, and the watch is back on the good one.
        tree.swap(to: "releases/9")
        #expect(Self.changed(watcher))
        tree.swap(to: "releases/3")
        #expect(Self.changed(watcher))
        tree.write(tree.directory("3") + "/kiosk.toml", ReleaseTree.text(title: "Three again"))
        #expect(Self.changed(watcher))
    }

    @Test func aWatcherStartedOnADanglingCurrentPicksUpTheFirstSwap() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: ConfigReleaseTests.red)
        tree.swap(to: "releases/0")
        let watcher = try ConfigWatcher(path: tree.config)
        tree.swap(to: "releases/1")
        #expect(Self.changed(watcher))
        tree.write(tree.directory("1") + "/kiosk.toml", ReleaseTree.text(title: "One again"))
        #expect(Self.changed(watcher))
    }

    /// The whole path of a push: one swap, one load (settled and superseding), the new release's
    /// text and icon, nothing more afterwards.
    @Test func oneSwapIsOneReloadOfTheNewRelease() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: ConfigReleaseTests.red)
        try tree.add("2", title: "Two", color: ConfigReleaseTests.blue)
        tree.swap(to: "releases/1")
        let service = try ConfigService(path: tree.config)
        #expect(service.loadNow().check.source == tree.directory("1") + "/kiosk.toml")
        let loop = try EventLoop()
        var applied: [(LoadedConfig, String)] = []
        var loadsStarted = 0
        service.loading = { loadsStarted += 1 }
        service.apply = { applied.append(($0, $1)) }
        try service.attach(to: loop)

        tree.swap(to: "releases/2")
        let deadline = MonotonicClock.now() + Patience.seconds
        while applied.isEmpty, MonotonicClock.now() < deadline { try loop.runOnce(timeout: 0.05) }
        // Time for a second reload to show up, if the swap made one.
        let quiet = MonotonicClock.now() + 0.5
        while MonotonicClock.now() < quiet { try loop.runOnce(timeout: 0.05) }
        #expect(loadsStarted == 1 && applied.count == 1)
        let loaded = try #require(applied.first?.0)
        #expect(applied.first?.1 == "file changed")
        #expect(loaded.check.config?.screens.first?.title == "Two")
        #expect(loaded.check.source == tree.directory("2") + "/kiosk.toml")
        #expect(ReleaseTree.icon(loaded)?.color == ConfigReleaseTests.blue)
    }

    /// A file replaced while the kiosk starts, after start-up read it and before the loop runs
    /// (the image's boot-config copies a new config beside the kiosk's start), is loaded once the
    /// loop runs: the watch was there before the read.
    @Test func aReplacementDuringStartUpIsLoadedOnceTheLoopRuns() throws {
        let tree = ReleaseTree()
        try tree.add("1", title: "One", color: ConfigReleaseTests.red)
        try tree.add("2", title: "Two", color: ConfigReleaseTests.blue)
        tree.swap(to: "releases/1")
        let service = try ConfigService(path: tree.config)
        #expect(service.loadNow().check.config?.screens.first?.title == "One")
        tree.swap(to: "releases/2")
        let loop = try EventLoop()
        var applied: [(LoadedConfig, String)] = []
        service.apply = { applied.append(($0, $1)) }
        try service.attach(to: loop)
        let deadline = MonotonicClock.now() + Patience.seconds
        while applied.isEmpty, MonotonicClock.now() < deadline { try loop.runOnce(timeout: 0.05) }
        #expect(applied.count == 1)
        #expect(applied.first?.0.check.config?.screens.first?.title == "Two")
    }
}
