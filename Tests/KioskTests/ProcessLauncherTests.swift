import Kiosk
@testable import KioskConfiguration
import Testing

@Suite struct ProcessLauncherTests {
    /// Programs from the menu get the kiosk's environment and their own, but never systemd's
    /// notify socket or watchdog: those belong to the service's main process.
    @Test func childrenDoNotInheritTheServiceNotifyVariables() {
        let inherited = ["PATH=/usr/bin:/bin", "NOTIFY_SOCKET=/run/systemd/notify", "WATCHDOG_USEC=4000000",
                         "WATCHDOG_PID=42", "JOURNAL_STREAM=8:123", "LANG=C.UTF-8", "ODD"]
        let command = Command(argv: ["player"], environment: ["LANG": "de_DE.UTF-8", "VOLUME": "3"])
        let env = ProcessLauncher.childEnvironment(inherited: inherited, for: command)
        #expect(env == ["PATH=/usr/bin:/bin", "JOURNAL_STREAM=8:123", "ODD", "LANG=de_DE.UTF-8", "VOLUME=3"])
    }
}
