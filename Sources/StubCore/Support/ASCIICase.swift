/// Case-insensitive comparison of header names (ASCII), without the allocations of `lowercased()`:
/// header lookups run several times per request.
enum ASCIICase {
    static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        for (x, y) in zip(a.utf8, b.utf8) where x != y {
            guard lower(x) == lower(y) else { return false }
        }
        return true
    }

    /// Whether two byte strings are equal ignoring ASCII case.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] {
            guard lower(a[i]) == lower(b[i]) else { return false }
        }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
