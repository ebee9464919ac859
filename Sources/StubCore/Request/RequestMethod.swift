/// Methods compare upper-case, as routes declare them.
package enum RequestMethod {
    /// `method` in upper case. Clients almost always send it so; only a lower-case one costs a copy.
    package static func normalized(_ method: String) -> String {
        // A plain loop: the generic `contains(where:)` is not specialized across modules.
        for byte in method.utf8 where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { return method.uppercased() }
        return method
    }
}
