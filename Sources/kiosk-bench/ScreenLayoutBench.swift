import Geometry
import KioskConfiguration
import MenuScreens
import Raster
import Text

/// A screen laid out for a panel (fitting every label, choosing columns, slots and sizes) and
/// its first frame, for the largest configs the generated-layout test writes: 40 items of 60
/// characters in Latin, Arabic and CJK, at `text_scale` 2, each style at 1080p and in portrait.
/// Done once per config load, panel size or value change, never per frame.
func runScreenLayoutBenchmarks() {
    guard (try? Font(path: Font.dejaVuSansPath)) != nil else { print("  no DejaVu Sans: skipped"); return }
    let words = ["Kalibrierung", "Temperatur", "الإعدادات", "العيادات", "设置", "温度", "MRI", "09:45", "Schlafzimmer", "Ogrzewanie"]
    let labels = (0..<40).map { n in
        var label = ""
        var k = n
        while label.count < 60 { label += (label.isEmpty ? "" : " ") + words[k % words.count]; k = k &* 7 &+ 3 }
        return String(label.prefix(60))
    }
    let items = labels.map { MenuItem(label: $0, action: .back) }
    var theme = ThemeConfig()
    theme.textScale = 2
    let styles: [(String, ScreenLayout)] = [("list, 4 columns", .list(ListStyle(columns: 4))), ("arc", .arc(ArcStyle())),
                                            ("dial, 12 slots", .dial(DialStyle(slots: 12)))]
    for (name, layout) in styles {
        let sections = [MenuSection(title: "Section one", items: Array(items[..<20])), MenuSection(title: "Section two", items: Array(items[20...]))]
        let config = ScreenConfig(name: "big", title: "A screen of forty long labels", layout: layout,
                                  sections: { if case .list = layout { return sections } else { return [MenuSection(items: items)] } }())
        for (w, h) in [(1920, 1080), (720, 1280)] {
            var made = [Double](), drawn = [Double]()
            for _ in 0..<5 {
                // A new font and resources each time: nothing measured or shaped is reused from the
                // last run, as after a config load (the font's own loading is not counted).
                guard let fresh = try? Font(path: Font.dejaVuSansPath) else { return }
                let resources = ScreenResources(theme: theme, assets: LoadedAssets(font: fresh), width: w, height: h)
                let t0 = BenchClock.nowNanoseconds()
                guard let screen = try? makeScreen(config, resources: resources) else { return }
                let t1 = BenchClock.nowNanoseconds()
                guard let buffer = try? PixelBuffer(width: w, height: h) else { return }
                _ = screen.draw(on: Canvas(buffer), full: true)
                let t2 = BenchClock.nowNanoseconds()
                made.append(Double(t1 - t0))
                drawn.append(Double(t2 - t1))
            }
            made.sort()
            drawn.sort()
            print("  \(name) at \(w)x\(h): layout".padded(52) + formatNanoseconds(made[2]) + " (min " + formatNanoseconds(made[0])
                  + "), first frame " + formatNanoseconds(drawn[2]))
        }
    }
}

private func makeScreen(_ config: ScreenConfig, resources: ScreenResources) throws -> MenuScreen {
    switch config.layout {
    case .arc(let style): return try ArcScreen(config: config, style: style, resources: resources, showsBack: true)
    case .dial(let style): return try DialScreen(config: config, style: style, resources: resources, showsBack: true)
    case .list(let style): return try ListScreen(config: config, style: style, resources: resources, showsBack: true)
    }
}
