#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// A host given by a variable nobody defines (`{{baseUrl}}/payments` in a collection shared
/// without its environment). The variable stands for the API's base: the example is kept, under
/// a service named after the variable, and what follows it is the route's path.
extension PostmanReader {
    /// What one example's reading noticed, for the import's report.
    struct ExampleNotes {
        /// How the status was found when the example has no `code`.
        var statusRule: String?
        /// The undefined variables of the host, and the host used instead.
        var undefinedHost: (names: [String], host: String)?
    }

    /// `url` (variables already resolved) with the undefined variables of its host replaced by
    /// their names (`{{baseUrl}}/x` → `https://baseurl/x`), and those names; nil when the host
    /// holds none. A scheme given by an undefined variable becomes `https`.
    static func undefinedHost(_ url: String) -> (url: String, names: [String], host: String)? {
        var scheme = "https"
        var rest = Substring(url)
        if let separator = url.firstRange(of: "://"), !url[..<separator.lowerBound].contains("/") {
            let given = url[..<separator.lowerBound]
            if !given.contains("{{") { scheme = given.lowercased() }
            rest = url[separator.upperBound...]
        }
        // The authority ends at the first `/` or `?` outside a `{{…}}`.
        var end = rest.startIndex
        var depth = 0
        while end < rest.endIndex {
            if rest[end...].hasPrefix("{{") { depth += 1; end = rest.index(end, offsetBy: 2); continue }
            if rest[end...].hasPrefix("}}"), depth > 0 { depth -= 1; end = rest.index(end, offsetBy: 2); continue }
            if depth == 0, rest[end] == "/" || rest[end] == "?" { break }
            end = rest.index(after: end)
        }
        let authority = rest[..<end]
        guard authority.contains("{{") else { return nil }
        var names: [String] = []
        var host = ""
        var remaining = authority
        while let open = remaining.firstRange(of: "{{"), let close = remaining[open.upperBound...].firstRange(of: "}}") {
            let name = String(remaining[open.upperBound..<close.lowerBound]).trimmingWhitespace()
            names.append(name)
            host += String(remaining[..<open.lowerBound]) + name
            remaining = remaining[close.upperBound...]
        }
        host += String(remaining)
        host = String(host.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") ? $0 : "-" })
        host = host.trimming { $0 == "-" || $0 == "." }
        if host.isEmpty { host = "postman" }
        return (scheme + "://" + host + String(rest[end...]), names, host)
    }
}

extension PostmanReader.Result {
    /// The report's line for each undefined host variable: how many examples it held and where
    /// they went.
    var undefinedHostLines: [String] {
        undefinedHosts.map { entry in
            "{{\(entry.names)}} is not defined (no collection variable or --environment value): its \(entry.count) example\(entry.count == 1 ? " is" : "s are") served by the service \(entry.host), the path after it as the route's path; give --environment FILE to set it"
        }
    }
}
