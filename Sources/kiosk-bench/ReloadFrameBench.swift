import Kiosk
import KioskConfiguration
import KioskSystem
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk-bench --reload-frame N [FILE] [WxH]`: the event loop's first frame after a reload, as the
/// runtime has it: the config loaded by a `ConfigLoadWorker` on its thread, applied to a running
/// `KioskApp` (its screens built, its icons rendered off the loop as the runtime has them:
/// `iconArrivals`), then one full frame drawn. Twice per round: the load told the output's size
/// (it rasterizes the icons, `IconWarmUp`) and not (the icons the first frame shows are queued
/// for the app's render thread, and drawn when they arrive). Prints per mode the median and
/// minimum of N rounds: the load on the worker (request to result), the apply and the first frame
/// on the loop, the icons that frame was drawn without, and from the first frame until the last
/// of them arrived. Default FILE: a config written to /tmp with 20 SVG files from Adwaita's symbolic
/// actions on an arc with its side panel; default size 800x480.
func runReloadFrame(_ arguments: [String]) {
    var args = arguments
    let rounds = args.first.flatMap { Int($0) } ?? 10
    if !args.isEmpty, Int(args[0]) != nil { args.removeFirst() }
    var size = (width: 800, height: 480)
    if let last = args.last, let x = last.firstIndex(of: "x"), let w = Int(last[..<x]), let h = Int(last[last.index(after: x)...]) {
        size = (w, h)
        args.removeLast()
    }
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release kiosk-bench` for real figures")
    #endif
    guard let file = args.first ?? writeTwentySVGConfig() else { return }
    do {
        // The running kiosk: the same file, already on screen.
        let first = LoadedConfig.load(using: ConfigReader(path: file))
        guard let config = first.check.config, let assets = first.assets else {
            print("reload frame: \(file) is not valid: \(first.check.report)")
            return
        }
        let app = try KioskApp(config: config, assets: assets, width: size.width, height: size.height, now: 0)
        let arrivals = try WakeSource()
        app.iconArrivals = arrivals
        let frame = try PixelBuffer(width: size.width, height: size.height)
        _ = app.draw(on: Canvas(frame), full: true)
        // Unbounded: the figure is what rasterizing everything at load costs (a reload is bounded by
        // ConfigLoadWorker.iconBudget, 50 ms).
        let worker = try ConfigLoadWorker(path: file, iconBudget: .infinity)
        var now = 1.0
        for warm in [false, true] {
            var load: [Double] = [], apply: [Double] = [], draw: [Double] = [], arrived: [Double] = [], missing: [Int] = []
            for round in 0...rounds {
                let t0 = BenchClock.nowNanoseconds()
                worker.request(outputSize: warm ? size : nil)
                var pfd = pollfd(fd: worker.completionDescriptor, events: Int16(POLLIN), revents: 0)
                var loaded: LoadedConfig?
                while loaded == nil {
                    _ = poll(&pfd, 1, 60_000)
                    loaded = worker.takeResult()
                }
                let t1 = BenchClock.nowNanoseconds()
                guard let loaded, let newAssets = loaded.assets else { print("reload frame: the reload is not valid"); return }
                now += 10
                let t2 = BenchClock.nowNanoseconds()
                app.apply(loaded.check, assets: newAssets, now: now)
                _ = app.advance(now: now)
                let t3 = BenchClock.nowNanoseconds()
                _ = app.draw(on: Canvas(frame), full: true)
                let t4 = BenchClock.nowNanoseconds()
                let without = newAssets.iconRenders?.iconsNotYetDrawn ?? 0
                var arrivalsPoll = pollfd(fd: arrivals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
                while app.iconRendersPending > 0 { _ = poll(&arrivalsPoll, 1, 100) }
                let t5 = BenchClock.nowNanoseconds()
                arrivals.acknowledge()
                app.frameTaken()
                // Let the reload's cross-fade end before the next round.
                _ = app.advance(now: now + 5)
                if round > 0 {  // the first warms fontconfig's and the page caches
                    load.append(Double(t1 - t0))
                    apply.append(Double(t3 - t2))
                    draw.append(Double(t4 - t3))
                    arrived.append(Double(t5 - t4))
                    missing.append(without)
                }
            }
            func median(_ v: [Double]) -> String { formatNanoseconds(v.sorted()[v.count / 2]) }
            func minimum(_ v: [Double]) -> String { formatNanoseconds(v.min() ?? 0) }
            print("reload \(file) at \(size.width)x\(size.height), icons rasterized \(warm ? "by the load" : "when drawn"), \(rounds) rounds: "
                  + "load (worker) \(median(load)) (min \(minimum(load))); apply \(median(apply)) (min \(minimum(apply))); "
                  + "first frame \(median(draw)) (min \(minimum(draw))); icons it was drawn without \(missing.max() ?? 0), "
                  + "all arrived \(median(arrived)) after it (min \(minimum(arrived)))")
        }
    } catch {
        print("reload frame: \(error)")
    }
}

/// A config of 20 SVG files (absolute paths) from Adwaita's symbolic actions on a right arc with its
/// side panel, written to /tmp; nil (said why) when Adwaita is not installed.
private func writeTwentySVGConfig() -> String? {
    let folders = ["/usr/share/icons/Adwaita/symbolic/actions", "/usr/share/icons/Adwaita/scalable/actions"]
    guard let folder = folders.first(where: { access($0, R_OK) == 0 }), let all = try? Directory.names(in: folder) else {
        print("reload frame: no Adwaita symbolic actions (adwaita-icon-theme) to take 20 SVG icons from")
        return nil
    }
    let names = all.filter { $0.hasSuffix("-symbolic.svg") }
    guard names.count >= 20 else {
        print("reload frame: fewer than 20 SVG icons in \(folder)")
        return nil
    }
    var text = "home = \"main\"\n\n[screens.main]\ntitle = \"Twenty icons\"\nstyle = \"arc\"\nedge = \"right\"\n"
    for (i, name) in names.prefix(20).enumerated() {
        text += "\n[[screens.main.items]]\nlabel = \"Item \(i + 1)\"\nicon = \"\(folder)/\(name)\"\naction = \"back\"\n"
        text += "description = \"What item \(i + 1) does.\"\n"
    }
    let path = "/tmp/kiosk-bench-svg20.toml"
    guard let f = fopen(path, "w") else {
        print("reload frame: cannot write \(path)")
        return nil
    }
    fputs(text, f)
    fclose(f)
    return path
}
