import Geometry
@testable import Kiosk
import Testing

/// Whether a screenshot would show placeholders is a fact of the frame on screen, not of the frame
/// drawn last: on a display that flips, the frame with every icon may still be on its way while
/// the panel shows the one without them.
@Suite struct FrameContentsTests {
    @Test func theFrameOnScreenDecidesNotTheFrameDrawnLast() {
        var contents = FrameContents()
        #expect(!contents.lacksIcons)
        contents.presented(position: .zero, lacksIcons: true)
        #expect(contents.lacksIcons)
        contents.shown(at: 1)
        #expect(contents.lacksIcons, "the frame on screen has placeholders")
        // The frame with every icon is drawn and handed over, but not yet on screen.
        contents.presented(position: .zero, lacksIcons: false)
        #expect(contents.lacksIcons, "the screen still shows the frame without its icons")
        contents.shown(at: 2)
        #expect(!contents.lacksIcons)
        // A frame drawn later that lacks icons (another screen opened) counts from when it is handed over.
        contents.presented(position: .zero, lacksIcons: true)
        #expect(contents.lacksIcons)
        contents.shown(at: 3)
        contents.presented(position: .zero, lacksIcons: false)
        contents.shown(at: 4)
        #expect(!contents.lacksIcons)
    }
}
