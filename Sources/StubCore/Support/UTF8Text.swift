/// Strings from bytes that must be UTF-8.
package enum UTF8Text {
    /// The string of `bytes` if they are UTF-8, else nil. ASCII, the common case, is checked in one
    /// pass and made without the generic validation, whose metadata lookups cost more than the
    /// copy on every request.
    package static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        return high < 0x80 ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }
}
