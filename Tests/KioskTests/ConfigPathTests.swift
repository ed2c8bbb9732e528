@testable import Kiosk
@testable import KioskConfiguration
import Testing

/// The one choice of config file shared by `kiosk run`, `kiosk status` and `kiosk-preview`.
@Suite struct ConfigPathTests {
    @Test func givenThenEnvironmentThenDefault() {
        let set: (String) -> String? = { $0 == "KIOSK_CONFIG" ? "/srv/kiosk.toml" : nil }
        let unset: (String) -> String? = { _ in nil }
        #expect(KioskConfig.path(given: "a.toml", environment: set) == "a.toml")
        #expect(KioskConfig.path(given: nil, environment: set) == "/srv/kiosk.toml")
        #expect(KioskConfig.path(given: nil, environment: unset) == "/etc/kiosk/kiosk.toml")
        #expect(KioskConfig.pathDefaultHelp == "default: $KIOSK_CONFIG, else /etc/kiosk/kiosk.toml")
    }
}
