/// Exact rounded division by 255 for products of two bytes: `(x + 128 + ((x + 128) >> 8)) >> 8`
/// equals `round(x / 255)` for every x in 0...65025 (tested exhaustively).
@inlinable @inline(__always)
public func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// `round(a * b / 255)` for two bytes.
@inlinable @inline(__always)
public func mul255(_ a: UInt32, _ b: UInt32) -> UInt32 { div255(a &* b) }
