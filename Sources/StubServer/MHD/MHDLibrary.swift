internal import CMicroHTTPD

/// The libmicrohttpd this process runs on, read at run time: a binary built against one
/// release's header may load another, as both series share the soname (0.9.75 from Debian 12,
/// 1.0.x from Homebrew, Debian 13 and Alpine). What the transport asks of the library, and what it
/// leaves to `RequestFraming`, is picked here and nowhere else.
enum MHDLibrary {
    /// The version libmicrohttpd reports, such as "0.9.75" or "1.0.1".
    static let version: String = MHD_get_version().map { String(cString: $0) } ?? "unknown"

    /// The version as numbers (major, minor, patch); zeros for a text that does not parse.
    static let release: (major: Int, minor: Int, patch: Int) = parse(version)

    /// Whether the library refuses malformed heads itself at a client-discipline level
    /// (`MHD_OPTION_CLIENT_DISCIPLINE_LVL`, 0.9.77 and later): folded header lines, a space in the
    /// target or before a colon, a bare CR, a missing Host, Transfer-Encoding other than chunked,
    /// and both Content-Length and Transfer-Encoding get its own 400 and a closed connection.
    static let refusesMalformedHeads: Bool = isAtLeast(0, 9, 77)

    /// The client-discipline level asked for where the library has it: 1, the lowest level that
    /// refuses obsolete line folding (RFC 9112 §5.2; at 0 and below it joins the lines into one
    /// value, which hides them from every check here and lets a folded Transfer-Encoding through).
    static let disciplineLevel: Int32 = 1

    /// True when the library is this release or later.
    static func isAtLeast(_ major: Int, _ minor: Int, _ patch: Int) -> Bool {
        (release.major, release.minor, release.patch) >= (major, minor, patch)
    }

    /// "1.0.1" -> (1, 0, 1); a part that is not a number reads as 0.
    static func parse(_ text: String) -> (major: Int, minor: Int, patch: Int) {
        let parts = text.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        return (parts.count > 0 ? parts[0] : 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
    }

    /// The daemon option that asks for `disciplineLevel`, or nil on a library without it.
    static var disciplineOption: MHD_OptionItem? {
        refusesMalformedHeads ? CMHD_client_discipline_option(disciplineLevel) : nil
    }
}
