#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// One saved example as an exchange: its request's method, URL, headers and body with the
/// variables resolved, and its response's status, headers and body.
extension PostmanReader {
    func exchange(_ example: JSONValue, request: JSONValue, at: String, notes: inout ExampleNotes) throws(HARReader.Problem) -> HARReader.Outcome {
        // v2.0 allows a request that is only its URL.
        let method = (request["method"]?.scalarText ?? "GET").uppercased()
        if !RouteLoader.methods.contains(method) { return .skipped("method \(method.prefix(40))") }
        guard let rawURL = url(request["url"] ?? request) else { return .skipped("no URL") }
        var resolved = resolve(rawURL)
        if let base = PostmanReader.undefinedHost(resolved) {
            resolved = base.url
            notes.undefinedHost = (base.names, base.host)
        }
        if let missing = unresolved(resolved) { return .skipped("unresolved variable {{\(missing)}} (give --environment FILE)") }
        let absolute = resolved.contains("://") ? resolved : "https://" + resolved
        guard let parts = HARURL(absolute) else { return .skipped("not an http(s) URL") }
        // An example saved without a response has no code; a code that is no status is a problem.
        // Without a code, the status text names it, as Postman's mock server reads it.
        let status: Int
        if let code = example["code"], code != .null {
            status = try HARReader.status(code, file: file, at: at + ".code")
        } else if let text = example["status"]?.scalarText, let named = PostmanReader.status(fromText: text) {
            status = named.code
            notes.statusRule = named.rule
        } else {
            return .skipped("an example without a status code")
        }
        let responseHeaders = pairs(example["header"])
        let mimeType = responseHeaders.first { $0.name.lowercased() == "content-type" }?.value
        let (path, declared) = pathVariables(parts.path, values: PostmanReader.values(request["url"]?["variable"], enabledKey: "disabled", enabledWhen: false))
        var exchange = CapturedExchange(
            method: method, scheme: parts.scheme, host: parts.host, path: path, query: parts.query,
            requestHeaders: pairs(request["header"]).map { ($0.name, resolve($0.value)) }, requestBody: body(request["body"]), status: status,
            responseHeaders: responseHeaders, responseBody: Array((example["body"]?.scalarText ?? "").utf8), mimeType: mimeType)
        exchange.pathVariables = declared
        return .kept(exchange)
    }

    /// The path with each `:name` segment (a Postman path variable) filled with its value, and
    /// the places of those segments by name; a variable without a value keeps its `:name`.
    func pathVariables(_ path: String, values: [String: String]) -> (path: String, declared: [Int: String]) {
        var declared: [Int: String] = [:]
        var position = 0
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            let segment = String(part)
            guard !segment.isEmpty else { return "" }
            defer { position += 1 }
            guard segment.count > 1, segment.hasPrefix(":"),
                  segment.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else { return String(segment) }
            let name = String(segment.dropFirst())
            declared[position] = name
            guard let value = values[name].map(resolve), !value.isEmpty else { return String(segment) }
            return value.percentEncodedComponent()
        }
        return (segments.joined(separator: "/"), declared)
    }

    /// The URL as text: v2.1's object (`raw`, or its parts) or v2.0's string.
    func url(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text.isEmpty ? nil : text }
        if let raw = value["raw"]?.scalarText, !raw.isEmpty { return raw }
        guard case .array(let hostParts)? = value["host"] else { return nil }
        let host = hostParts.compactMap(\.scalarText).joined(separator: ".")
        var path: [String] = []
        if case .array(let parts)? = value["path"] { path = parts.compactMap(\.scalarText) }
        let scheme = value["protocol"]?.scalarText.map { $0 + "://" } ?? ""
        return scheme + host + "/" + path.joined(separator: "/")
    }

    /// `text` with each `{{name}}` the variables know replaced by its value.
    func resolve(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let name = String(rest[open.upperBound..<close.lowerBound]).trimmingWhitespace()
            out += rest[..<open.lowerBound]
            out += variables[name] ?? "{{\(name)}}"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The first `{{name}}` left in `text`, or nil.
    func unresolved(_ text: String) -> String? {
        guard let open = text.firstRange(of: "{{"), let close = text[open.upperBound...].firstRange(of: "}}") else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// `[{key, value, disabled}]` (headers), without the disabled ones; v2.0 may give a string of
    /// `Name: value` lines.
    func pairs(_ value: JSONValue?) -> [(name: String, value: String)] {
        if case .string(let text)? = value {
            return text.split(whereSeparator: \.isNewline).compactMap { line -> (name: String, value: String)? in
                let text = String(line)
                guard let colon = text.firstIndex(of: ":") else { return nil }
                return (String(text[..<colon]).trimmingWhitespace(), String(text[text.index(after: colon)...]).trimmingWhitespace())
            }
        }
        guard case .array(let entries)? = value else { return [] }
        return entries.compactMap { entry in
            guard let key = entry["key"]?.scalarText else { return nil }
            if case .bool(true)? = entry["disabled"] { return nil }
            return (key, entry["value"]?.scalarText ?? "")
        }
    }

    /// The request body: raw text, a urlencoded form, or a GraphQL query as the JSON Postman
    /// sends; form-data and files are left out.
    func body(_ value: JSONValue?) -> [UInt8] {
        guard let value, let mode = value["mode"]?.scalarText else { return [] }
        switch mode {
        case "raw":
            return Array(resolve(value["raw"]?.scalarText ?? "").utf8)
        case "urlencoded":
            let fields = pairs(value["urlencoded"]).map { "\(PostmanReader.formEncoded(resolve($0.name)))=\(PostmanReader.formEncoded(resolve($0.value)))" }
            return Array(fields.joined(separator: "&").utf8)
        case "graphql":
            guard let query = value["graphql"]?["query"]?.scalarText else { return [] }
            let variables = (value["graphql"]?["variables"]?.scalarText).flatMap { try? JSONParser.parse(Array(resolve($0).utf8)) } ?? .object([])
            return Array(JSONValue.object([("query", .string(query)), ("variables", variables)]).serialized().utf8)
        default:
            return []
        }
    }

    static func formEncoded(_ text: String) -> String { text.percentEncodedComponent() }
}
