import Foundation
@testable import KioskConfiguration
import Raster
import Testing
import Text
@testable import Kiosk

/// Issue 19's config shape: one list of action kinds, one of style keys, and the font and images
/// decoded once per load, the validator reporting what that decode found.
@Suite struct ConfigOnceTests {
    /// The keys a `[screens.NAME]` table of `style` knows, as the decoder lists them for an unknown key.
    func knownKeys(style: ScreenStyle) throws -> [String] {
        let body = style == .list
            ? "[[screens.main.sections]]\n[[screens.main.sections.items]]\nlabel = \"x\"\naction = \"back\"\n"
            : "[[screens.main.items]]\nlabel = \"x\"\naction = \"back\"\n"
        let text = "[screens.main]\nstyle = \"\(style.rawValue)\"\nzzqqxxjj = 1\n\n" + body
        let decoded = ConfigReader.decode(text: text, file: "k.toml", baseDirectory: "/")
        let message = try #require(decoded.problems.first { $0.location.keyPath == "screens.main.zzqqxxjj" }?.message)
        let listing = try #require(message.range(of: "(known here: "))
        return message[listing.upperBound...].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// What the decoder reads for each style is `StyleKey`'s list for it, in its order, after the
    /// keys every screen has.
    @Test(arguments: ScreenStyle.allCases) func theDecoderReadsExactlyTheStylesKeys(style: ScreenStyle) throws {
        let common = ["style", "title", "id", "value", "background", "direction", "pin_hash"]
        #expect(try knownKeys(style: style) == common + style.keys.map(\.rawValue))
    }

    @Test func everyStyleKeyBelongsToAStyle() {
        for key in StyleKey.allCases { #expect(!key.styles.isEmpty, "\(key)") }
        #expect(Set(ScreenStyle.allCases.flatMap(\.keys)) == Set(StyleKey.allCases))
    }

    /// Every action kind decodes to an item of that kind (a toggle's from its `toggle` table); a
    /// missing action lists the ones `action` takes, in order.
    @Test func actionKindsAreOneList() throws {
        let scratch = ScratchDirectory()
        for kind in ActionKind.allCases {
            var action = "action = \"\(kind.rawValue)\"\n"
            switch kind {
            case .screen: action += "screen = \"main\""
            case .exec, .spawn: action += "command = [\"/bin/true\"]"
            case .toggle: action = "id = \"t\"\ntoggle = { file = \"/tmp/t\", on = [\"/bin/true\"], off = [\"/bin/true\"] }"
            default: break
            }
            let text = "[screens.main]\nstyle = \"arc\"\n\n[[screens.main.items]]\nlabel = \"x\"\n\(action)\n"
            let decoded = ConfigReader.decode(text: text, file: "k.toml", baseDirectory: scratch.path)
            let config = try #require(decoded.config, "\(kind): \(lines(decoded.problems))")
            #expect(config.screens[0].items[0].action.kind == kind)
        }
        let missing = ConfigReader.decode(text: "[screens.main]\nstyle = \"arc\"\n[[screens.main.items]]\nlabel = \"x\"\n",
                                          file: "k.toml", baseDirectory: "/")
        #expect(missing.problems.map(\.message)
                == ["missing: expected one of " + ActionKind.configurable.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")])
    }

    /// The status file's and the metrics' names for what an effect did are the config's words.
    @Test func effectsAreNamedByTheirActionKind() {
        let command = Command(argv: ["/bin/true"])
        #expect([ActionRequest.exec(command, label: "a"), .spawn(command, label: "b"), .reload, .poweroff, .reboot].map(\.kind)
                == [.exec, .spawn, .reload, .poweroff, .reboot])
        #expect(ActionRequest.poweroff.label == "poweroff")
    }

    /// The validator loads nothing itself: the font and image problems it reports are those of the
    /// load's decode, at every key that names the image.
    @Test func theValidatorReportsWhatTheLoadDecoded() throws {
        let text = minimalConfig("""

            [[screens.main.items]]
            label = "Icon"
            icon = "/nowhere/icon.png"
            action = "back"

            [[screens.main.items]]
            label = "Same icon"
            icon = "/nowhere/icon.png"
            action = "back"
            """)
        let decoded = ConfigReader.decode(text: text, file: "k.toml", baseDirectory: "/")
        let config = try #require(decoded.config)
        let planted = ConfigAssets(font: nil, fontProblem: "planted font problem", images: [:], vectors: [:],
                                   imageProblems: ["/nowhere/icon.png": "planted image problem"], complete: true)
        let problems = ConfigValidator(file: "k.toml").validate(config, assets: planted)
        #expect(problems.map(\.description) == [
            "k.toml: theme.font: planted font problem",
            "k.toml: screens.main.items[1].icon: planted image problem",
            "k.toml: screens.main.items[2].icon: planted image problem",
        ])
    }

    /// One load decodes each image once and hands the decoded pixels on with the valid config.
    @Test func aLoadHandsOnTheAssetsItValidated() throws {
        let scratch = ScratchDirectory()
        let icon = ConfigPaths.repository + "/systemd/icons/radio.png"
        let text = minimalConfig("""

            [[screens.main.items]]
            label = "Radio"
            icon = "\(icon)"
            action = "back"

            [[screens.main.items]]
            label = "Radio again"
            icon = "\(icon)"
            action = "back"
            """)
        let loaded = ConfigReader(path: scratch.write("k.toml", text)).load()
        #expect(loaded.check.isValid, "\(loaded.check.report)")
        let assets = try #require(loaded.assets)
        #expect(assets.images.count == 1 && assets.image(icon).map { ($0.width, $0.height) } ?? (0, 0) == (48, 48))
        #expect(assets.problems.isEmpty)
        // An invalid config comes without assets.
        let bad = ConfigReader(path: scratch.write("bad.toml", "idle_timeout = -1\n" + minimalConfig())).load()
        #expect(!bad.check.isValid && bad.assets == nil)
    }

    /// A load told to stop before its images ends unusable, without decoding them.
    @Test func aStoppedLoadIsUnusable() {
        let scratch = ScratchDirectory()
        let icon = ConfigPaths.repository + "/systemd/icons/radio.png"
        let text = minimalConfig().replacingOccurrences(of: "label = \"Hello\"", with: "label = \"Hello\"\nicon = \"\(icon)\"")
        let loaded = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").load { true }
        #expect(!loaded.check.isValid && loaded.assets == nil)
    }
}
