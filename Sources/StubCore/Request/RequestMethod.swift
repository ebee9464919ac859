/// Methods compare upper-case, as routes declare them.
package enum RequestMethod {
    /// `method` in upper case. Clients almost always send it so; only a lower-case one costs a copy.
    package static func normalized(_ method: String) -> String {
        method.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } ? method.uppercased() : method
    }
}
