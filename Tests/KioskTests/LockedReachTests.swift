@testable import KioskConfiguration
@testable import Kiosk
import Testing

/// Which screens a PIN guards, as the control API's gate sees them: a locked screen, what the
/// menu reaches only through it, never what it also reaches openly or what nothing links to.
@Suite struct LockedReachTests {
    static func screen(_ name: String, pin: Bool = false, links: [String] = []) -> ScreenConfig {
        let items = links.map { MenuItem(label: $0, action: .screen($0)) } + [MenuItem(label: "Back", action: .back)]
        let hash = pin ? try! PinHash.make(pin: "2468") : nil
        return ScreenConfig(name: name, layout: .list(ListStyle()), sections: [MenuSection(items: items)], pinHash: hash)
    }

    static let config = KioskConfig(home: "home", screens: [
        screen("home", links: ["service", "help"]),
        screen("service", pin: true, links: ["danger", "help", "logs"]),
        screen("danger", links: ["deeper", "home"]),
        screen("deeper"),
        screen("help"),
        screen("logs", links: ["vault"]),
        screen("vault", pin: true, links: ["gold"]),
        screen("gold"),
        screen("api-only"),
        screen("orphan-locked", pin: true, links: ["orphan-child"]),
        screen("orphan-child"),
    ])

    @Test func aLockGuardsWhatIsReachedOnlyThroughIt() {
        let reach = LockedReach(config: Self.config, isLocked: { $0.pinHash != nil })
        #expect(reach.lockOf == [
            "service": "service", "danger": "service", "deeper": "service", "logs": "service",
            "vault": "vault", "gold": "vault",
            "orphan-locked": "orphan-locked", "orphan-child": "orphan-locked",
        ])
        #expect(reach.lock(of: "help") == nil, "reached from home too")
        #expect(reach.lock(of: "api-only") == nil, "nothing links to it: only the API shows it")
        #expect(reach.lock(of: "home") == nil)
    }

    @Test func anOpenLockGuardsNothingBehindIt() {
        let reach = LockedReach(config: Self.config, isLocked: { $0.pinHash != nil && $0.name != "service" })
        #expect(reach.lockOf == ["vault": "vault", "gold": "vault", "orphan-locked": "orphan-locked", "orphan-child": "orphan-locked"])
    }

    @Test func linksToMissingScreensAndCyclesEnd() {
        let config = KioskConfig(home: "home", screens: [
            Self.screen("home", links: ["a", "missing"]),
            Self.screen("a", pin: true, links: ["b"]),
            Self.screen("b", links: ["a", "b", "nowhere"]),
        ])
        let reach = LockedReach(config: config, isLocked: { $0.pinHash != nil })
        #expect(reach.lockOf == ["a": "a", "b": "a"])
    }

    /// check-config warns where `api_when_locked` does nothing, and where an `api = true` value
    /// or toggle could never be set while its screen is locked.
    @Test func checkConfigWarnsAboutTheLockAndTheAPI() throws {
        let scratch = ScratchDirectory()
        let hash = try PinHash.make(pin: "2468")
        let text = """
            home = "main"

            [screens.main]
            style = "list"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "open"
            label = "Open {value}"
            action = "screen"
            screen = "service"
            value = { api = true }
            api_when_locked = true

            [screens.service]
            style = "list"
            pin_hash = "\(hash.text)"

            [[screens.service.sections]]
            [[screens.service.sections.items]]
            id = "offset"
            label = "Offset {value}"
            action = "back"
            value = { api = true }

            [[screens.service.sections.items]]
            id = "fed"
            label = "Fed {value}"
            action = "back"
            value = { api = true }
            api_when_locked = true

            """
        let check = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml", searchPath: "/usr/bin:/bin").check()
        #expect(check.isValid)
        #expect(check.problems.map(\.description) == [
            "k.toml:13:19: screens.main.sections[0].items[0].api_when_locked: warning: does nothing: screen \"main\" has no pin_hash and is not reached only through one",
            "k.toml:24:9: screens.service.sections[0].items[0].value: warning: api = true, but nothing from outside sets it while screen \"service\" is locked behind its PIN; api_when_locked = true lets the API set it then",
        ])
    }
}
