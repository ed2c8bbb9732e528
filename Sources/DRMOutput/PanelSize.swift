/// A panel size given on a command line (`--size 800x480`): `kiosk render`, `kiosk demo
/// --headless-offset`, `kiosk-preview`. A size that cannot be used says what is wrong with it.
public struct PanelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int

    /// Largest side accepted, in pixels: what DRM drivers offer as their largest framebuffer
    /// (an 8K panel is 7680 wide). One frame at 16384x16384 is already 1 GiB; larger ones would
    /// only fail later, as an allocation.
    public static let maximumSide = 16384

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `800x480`, each side 1...`maximumSide`; `option` names the option in messages.
    public init(parsing text: String, option: String = "--size") throws(PanelSizeError) {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            throw PanelSizeError("\(option) \"\(text)\" must look like 800x480 (WIDTHxHEIGHT in pixels)")
        }
        // All digits: a side too long for an Int is simply too large.
        let w = Int(sides[0]) ?? Int.max, h = Int(sides[1]) ?? Int.max
        guard w > 0, h > 0 else { throw PanelSizeError("\(option) \(text): a side of 0 pixels; each side must be at least 1") }
        guard w <= Self.maximumSide, h <= Self.maximumSide else {
            throw PanelSizeError("\(option) \(text) is too large: at most \(Self.maximumSide) pixels a side")
        }
        self.init(width: w, height: h)
    }
}

/// Why a `--size` cannot be used, as one line for the command's usage error.
public struct PanelSizeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
