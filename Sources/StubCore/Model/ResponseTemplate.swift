/// A body with request values filled in per request (`"template": true` on a variant):
/// `{{path.id}}`, `{{query.page}}`, `{{header.X-Name}}`, `{{body.field}}` (`{{body.user.name}}`,
/// `{{body.items.0.id}}` deeper in), `{{method}}`, `{{request.path}}`, state values
/// (`{{state.token}}`), a value as JSON (`{{json body.user}}`), and the values that move with
/// time and the seed (`TemplateHelper`).
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
        /// A value deeper in a JSON body, by member names and array indices (`user.name`, `items.0.id`).
        case bodyPath([String])
        /// A state value of the route's service (`StubMemory`).
        case state(String)
        /// A value inserted as JSON text rather than as a string's contents (`{{json body.user}}`).
        indirect case json(Source)
        /// A value that moves: the time, an id, a counter, a random or fake value.
        case helper(TemplateHelper)
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
    /// The template as written (for messages that name it).
    package var text: String { String(decoding: source, as: UTF8.self) }
    private let source: [UInt8]
    /// True when values are escaped for a JSON string context.
    package let escapesJSON: Bool

    /// The placeholder forms, for error messages.
    package static let forms = "{{path.NAME}}, {{query.NAME}}, {{header.NAME}}, {{body.NAME}}, {{state.NAME}}, {{json body.NAME}}, {{method}}, {{request.path}} or \(TemplateHelper.forms)"

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
                let source: Source
                switch ResponseTemplate.placeholder(name) {
                case .success(let found): source = found
                case .failure(let error): return .failure(error)
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
        return .success(ResponseTemplate(parts: parts, source: bytes, escapesJSON: escapesJSON))
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i + 1] == needle[1] { return i }
            i += 1
        }
        return nil
    }

    /// The source a placeholder names, or what was expected instead.
    static func placeholder(_ name: String) -> Result<Source, TemplateError> {
        if let helper = TemplateHelper.parse(name) { return helper.map(Source.helper) }
        if name.hasPrefix("json ") {
            let inner = PathText.trimmed(Substring(name.dropFirst(5)))
            guard let source = source(inner), source.readsValue else {
                return .failure(TemplateError(message: "expected {{json body.NAME}}, {{json state.NAME}}, {{json query.NAME}} or {{json path.NAME}}, found {{\(name)}}"))
            }
            return .success(.json(source))
        }
        guard let source = source(name) else { return .failure(TemplateError(message: "unknown placeholder {{\(name)}}; expected \(forms)")) }
        return .success(source)
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
        case "body": return key.contains(".") ? .bodyPath(key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)) : .body(key)
        case "state": return .state(key)
        default: return nil
        }
    }

    /// The state values the template reads, by name (checked against the service's at load time).
    package var stateNames: [String] {
        parts.compactMap { part in
            switch part {
            case .value(.state(let name)), .value(.json(.state(let name))): return name
            default: return nil
            }
        }
    }

    /// True when rendering reads state, or draws from the seed or the counter: the route then
    /// plans with its memory (`RequestView.memory`).
    package var remembers: Bool {
        parts.contains { part in
            switch part {
            case .value(.state), .value(.json(.state)), .value(.helper): return true
            default: return false
            }
        }
    }

    /// The text before the first placeholder (all of it when there is none), and whether there is one.
    var literalPrefix: (text: String, whole: Bool) {
        var prefix: [UInt8] = []
        for part in parts {
            guard case .literal(let bytes) = part else { return (String(decoding: prefix, as: UTF8.self), false) }
            prefix += bytes
        }
        return (String(decoding: prefix, as: UTF8.self), true)
    }

    /// True when the template is one placeholder and nothing else (a `then` value keeps its type).
    var single: Source? {
        guard parts.count == 1, case .value(let source) = parts[0] else { return nil }
        return source
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
            case .value(.json(let source)):
                out += Array((value(of: source, &view) ?? .null).serialized().utf8)
            case .value(let source):
                let text = self.text(of: source, &view)
                out += escapesJSON ? ResponseTemplate.jsonEscaped(text) : Array(text.utf8)
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

extension ResponseTemplate.Source {
    /// True for a source with a value of the request or of state, which `{{json …}}` may insert.
    var readsValue: Bool {
        switch self {
        case .path, .query, .header, .body, .bodyPath, .state: return true
        case .json, .helper, .method, .requestPath: return false
        }
    }
}

/// A template that cannot be used, with the reason.
package struct TemplateError: Error, Sendable {
    /// What was expected and what was found.
    package var message: String
}
