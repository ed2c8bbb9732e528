@testable import DRMOutput
import Kiosk
import Testing

/// `--size` of `kiosk render`, `kiosk demo` and `kiosk-preview`: a size that cannot be used says
/// what is wrong with it, not only what a size looks like.
@Suite struct PanelSizeTests {
    func message(_ text: String) -> String? {
        do { _ = try PanelSize(parsing: text); return nil } catch { return error.description }
    }

    @Test func parsesWidthByHeight() throws {
        #expect(try PanelSize(parsing: "800x480") == PanelSize(width: 800, height: 480))
        #expect(try PanelSize(parsing: "1x1") == PanelSize(width: 1, height: 1))
        #expect(try PanelSize(parsing: "16384x16384") == PanelSize(width: 16384, height: 16384))
    }

    @Test func tooLargeNamesTheLimit() {
        #expect(message("100000x100000") == "--size 100000x100000 is too large: at most 16384 pixels a side")
        #expect(message("800x16385") == "--size 800x16385 is too large: at most 16384 pixels a side")
        // Too many digits for an Int is too large too, not malformed.
        #expect(message("99999999999999999999999x480") == "--size 99999999999999999999999x480 is too large: at most 16384 pixels a side")
    }

    @Test func zeroSideIsNamed() {
        #expect(message("0x480") == "--size 0x480: a side of 0 pixels; each side must be at least 1")
    }

    @Test func malformedSaysWhatASizeLooksLike() {
        for bad in ["", "800", "800x", "x480", "800x480x", "800xx480", "800X480", "-800x480", "800x480@60", "8 00x480", "abc"] {
            #expect(message(bad) == "--size \"\(bad)\" must look like 800x480 (WIDTHxHEIGHT in pixels)", "\(bad)")
        }
    }

    @Test func optionNameIsTheCallers() {
        #expect(message("0x0")?.hasPrefix("--size ") == true)
        do { _ = try PanelSize(parsing: "20000x1", option: "--panel"); Issue.record("accepted") } catch {
            #expect(error.description == "--panel 20000x1 is too large: at most 16384 pixels a side")
        }
    }
}
