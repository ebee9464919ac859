/// A body with request values filled in per request (`"template": true` on a variant):
/// `{{path.id}}`, `{{query.page}}`, `{{header.X-Name}}`, `{{body.field}}`, `{{method}}`, `{{request.path}}`.
///
/// The body is split once at load time; rendering only concatenates. Values inserted into a JSON
/// body are JSON-escaped, so a quote in a query value cannot break the document.
package struct ResponseTemplate: Sendable {
    /// Where a placeholder's value comes from.
    package enum Source: Sendable, Equatable {
        /// A path template parameter.
        case path(String)
        /// A query parameter (percent-decoded).
        case query(String)
        /// A request header (case-insensitive).
        case header(String)
        /// A top-level field of a JSON or form body.
        case body(String)
        /// The request method.
        case method
        /// The request path.
        case requestPath
    }

    enum Part: Sendable {
        case literal([UInt8])
        case value(Source)
    }

    let parts: [Part]
    /// True when values are escaped for a JSON string context.
    package let escapesJSON: Bool

    /// The placeholder forms, for error messages.
    package static let forms = "{{path.NAME}}, {{query.NAME}}, {{header.NAME}}, {{body.NAME}}, {{method}} or {{request.path}}"

    /// Splits `bytes` into literal runs and placeholders; an unknown placeholder is an error message.
    package static func parse(_ bytes: [UInt8], escapesJSON: Bool) -> Result<ResponseTemplate, TemplateError> {
        var parts: [Part] = []
        var literal: [UInt8] = []
        var i = 0
        let open: [UInt8] = [0x7B, 0x7B], close: [UInt8] = [0x7D, 0x7D]
        while i < bytes.count {
            if i + 1 < bytes.count, bytes[i] == open[0], bytes[i + 1] == open[1],
               let end = ResponseTemplate.find(close, in: bytes, from: i + 2) {
                let name = PathText.trimmed(Substring(String(decoding: bytes[(i + 2)..<end], as: UTF8.self)))
                guard let source = ResponseTemplate.source(name) else {
                    return .failure(TemplateError(message: "unknown placeholder {{\(name)}}; expected \(forms)"))
                }
                if !literal.isEmpty { parts.append(.literal(literal)); literal = [] }
                parts.append(.value(source))
                i = end + 2
            } else {
                literal.append(bytes[i])
                i += 1
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(ResponseTemplate(parts: parts, escapesJSON: escapesJSON))
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i + 1] == needle[1] { return i }
            i += 1
        }
        return nil
    }

    static func source(_ name: String) -> Source? {
        if name == "method" { return .method }
        if name == "request.path" { return .requestPath }
        guard let dot = name.firstIndex(of: "."), name.index(after: dot) < name.endIndex else { return nil }
        let key = String(name[name.index(after: dot)...])
        switch name[..<dot] {
        case "path": return .path(key)
        case "query": return .query(key)
        case "header": return .header(key)
        case "body": return .body(key)
        default: return nil
        }
    }

    /// The path parameters the template refers to (checked against the route at load time).
    package var pathParameters: [String] {
        parts.compactMap { if case .value(.path(let name)) = $0 { return name } else { return nil } }
    }

    /// The body with every placeholder replaced by `0`: what load-time JSON validation parses.
    package var sample: [UInt8] {
        parts.flatMap { part -> [UInt8] in
            if case .literal(let bytes) = part { return bytes }
            return [UInt8(ascii: "0")]
        }
    }

    /// The body for one request; a value the request lacks renders as an empty string.
    package func render(_ request: StubRequest, parameters: [String: String]) -> [UInt8] {
        var view = RequestView(request, parameters: parameters)
        return render(&view)
    }

    func render(_ view: inout RequestView) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            switch part {
            case .literal(let bytes): out += bytes
            case .value(let source):
                let value: String
                switch source {
                case .path(let name): value = view.parameter(name) ?? ""
                case .query(let name): value = view.query(name) ?? ""
                case .header(let name): value = view.header(name) ?? ""
                case .body(let name): value = view.bodyField(name) ?? ""
                case .method: value = view.head.method
                case .requestPath: value = view.head.path
                }
                out += escapesJSON ? ResponseTemplate.jsonEscaped(value) : Array(value.utf8)
            }
        }
        return out
    }

    static func jsonEscaped(_ value: String) -> [UInt8] {
        var text = ""
        JSONValue.writeEscaped(value, to: &text)
        return Array(text.utf8.dropFirst().dropLast())
    }
}

/// A template that cannot be used, with the reason.
package struct TemplateError: Error, Sendable {
    /// What was expected and what was found.
    package var message: String
}
