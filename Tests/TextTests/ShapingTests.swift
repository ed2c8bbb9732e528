import Testing
import Text

@Suite struct ShapingSmokeTests {
    @Test func arabicJoins() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let shaped = font.shape("قهوة", size: 20)
        #expect(shaped.isRightToLeft)
        #expect(shaped.glyphs.count == 4)
    }
}
