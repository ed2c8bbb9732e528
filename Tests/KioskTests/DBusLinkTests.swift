@testable import Kiosk
import KioskConfiguration
import KioskSystem
import Testing

/// `DBusLink`'s retries with time moved by hand, against an address where no bus is: each
/// attempt fails at once (connecting never waits), the pause doubles up to its longest, and
/// turning the API off stops the retries.
@Suite struct DBusLinkTests {
    /// A link to an address in `scratch` where no bus is, for a one-item config's app.
    static func link(in scratch: ScratchDirectory, bootPatience: Double? = nil) throws -> (DBusLink, KioskApp) {
        let check = ConfigReader(path: scratch.write("kiosk.toml", "[screens.main]\nstyle = \"list\"\n[[screens.main.sections]]\n[[screens.main.sections.items]]\nlabel = \"Back\"\naction = \"back\"\n"),
                                 displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
        let app = try KioskApp(config: try #require(check.config), width: 320, height: 240, now: 0)
        let link = DBusLink(control: KioskControl(app: app, power: nil, clock: { 0 }),
                            address: "unix:path=\(scratch.path)/no-bus", loop: try EventLoop(), bootPatience: bootPatience)
        return (link, app)
    }

    @Test func aMissingBusIsTriedAgainLessAndLessOften() throws {
        let scratch = ScratchDirectory()
        let (link, _) = try Self.link(in: scratch)
        var changes = 0
        link.changed = { changes += 1 }
        #expect(link.state == .off && link.nextDeadline == nil)
        link.enable(true, now: 100)
        #expect(link.attempts == 1 && link.state.word == "retrying" && changes == 1)
        #expect(link.state.why?.hasPrefix("cannot connect to the bus at unix:path=\(scratch.path)/no-bus: sd_bus_start") == true, "\(link.state)")
        // Not before its time.
        #expect(link.nextDeadline == 101)
        link.advance(now: 100.9)
        #expect(link.attempts == 1)
        // Then after 1, 2, 4, 8, 16 s and at most every 30 s.
        var at = 100.0
        for pause in [1.0, 2, 4, 8, 16, 30, 30] {
            at += pause
            #expect(link.nextDeadline == at)
            link.advance(now: at)
        }
        #expect(link.attempts == 8 && link.connects == 0 && link.nextDeadline == at + 30)
        // Turned off by a reload: no more attempts; on again: at once, the pause from the start.
        link.enable(false, now: at + 1)
        #expect(link.state == .off && link.nextDeadline == nil)
        link.advance(now: at + 100)
        #expect(link.attempts == 8)
        link.enable(true, now: at + 200)
        #expect(link.attempts == 9 && link.nextDeadline == at + 201)
    }

    /// At boot the bus comes up after the kiosk: until the first connection it is looked for
    /// every quarter second for the boot's patience, then less and less often as above.
    @Test func aBusNotUpYetAtBootIsLookedForOften() throws {
        let scratch = ScratchDirectory()
        let (link, app) = try Self.link(in: scratch, bootPatience: 2)
        link.enable(true, now: 100)
        #expect(link.state.word == "retrying" && link.nextDeadline == 100.25)
        var at = 100.0
        while at < 102 {
            at += 0.25
            #expect(link.nextDeadline == at)
            link.advance(now: at)
        }
        #expect(link.attempts == 9 && link.connects == 0)
        #expect(link.nextDeadline == at + 1)
        link.advance(now: at + 1)
        #expect(link.nextDeadline == at + 3)
        // The system bus gets a minute; a bus at an address none (the test above).
        #expect(DBusLink(control: KioskControl(app: app, power: nil, clock: { 0 }), address: nil, loop: try EventLoop()).bootPatience == 60)
    }
}
