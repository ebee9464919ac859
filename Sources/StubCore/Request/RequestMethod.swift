/// Methods compare upper-case, as routes declare them.
package enum RequestMethod {
    /// `method` in upper case. Clients almost always send it so; only a lower-case one costs a copy.
    package static func normalized(_ method: String) -> String {
        // A plain loop: the generic `contains(where:)` is not specialized across modules.
        for byte in method.utf8 where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { return method.uppercased() }
        return method
    }

    /// The method a C string names: one of the common ones without making a string (they are
    /// compared as bytes), else `normalized`.
    package static func of(_ text: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "G"), UInt8(ascii: "E")) where bytes[2] == UInt8(ascii: "T") && bytes[3] == 0: return "GET"
        case (UInt8(ascii: "P"), UInt8(ascii: "O")) where bytes[2] == UInt8(ascii: "S") && bytes[3] == UInt8(ascii: "T") && bytes[4] == 0: return "POST"
        default: return normalized(String(cString: text))
        }
    }
}
