/// The journal as a Pact (specification 3.0.0) consumer contract: each distinct exchange a stub
/// answered is an interaction the provider must honour.
///
/// - The request keeps its method, path, query and body, and of its headers only those a `when`
///   of its route looks at; a path parameter becomes a regex matching rule on the path.
/// - The response is the variant's status, headers and body (a template's rendered again from
///   the recorded request, with `type` matching on the body, since its values follow the request).
/// - The provider state names the route and variant (`app/user answers 404`, with `route` and
///   `variant` as its parameters), which `POST /__stubd/pact/state` sets up as an override, so
///   the contract verifies against stubd serving the same stubs.
///
/// Deterministic: the same journal gives the same bytes (entries in journal order, keys in a
/// fixed order, repeats left out).
package struct PactWriter {
    let consumer: String
    let provider: String

    package init(consumer: String, provider: String) {
        self.consumer = consumer
        self.provider = provider
    }

    /// The pact file for `entries` (journal order).
    package func pact(_ entries: [RequestJournal.Entry], version: String) -> JSONValue {
        var interactions: [JSONValue] = []
        var seen: Set<String> = []
        var descriptions: [String: Int] = [:]
        for entry in entries {
            guard let interaction = interaction(entry.record) else { continue }
            let key = interaction.request.serialized() + "\u{0}" + interaction.response.serialized() + "\u{0}" + interaction.state
            guard seen.insert(key).inserted else { continue }
            let count = descriptions[interaction.description, default: 0] + 1
            descriptions[interaction.description] = count
            let description = count == 1 ? interaction.description : "\(interaction.description) (\(count))"
            interactions.append(.object([
                ("description", .string(description)),
                ("providerStates", .array([.object([("name", .string(interaction.state)), ("params", interaction.stateParams)])])),
                ("request", interaction.request),
                ("response", interaction.response),
            ]))
        }
        return .object([
            ("consumer", .object([("name", .string(consumer))])),
            ("provider", .object([("name", .string(provider))])),
            ("interactions", .array(interactions)),
            ("metadata", .object([("pactSpecification", .object([("version", .string("3.0.0"))])),
                                  ("stubd", .object([("version", .string(version))]))])),
        ])
    }

    struct Interaction {
        var description: String
        var state: String
        var stateParams: JSONValue
        var request: JSONValue
        var response: JSONValue
    }

    /// One journal record as an interaction; nil for what no stub answered (a miss, a fault, a
    /// stream, a proxied call, a GraphQL operation).
    func interaction(_ record: RequestRecord) -> Interaction? {
        guard let route = record.route, let name = record.variant, let variant = route.variants.first(where: { $0.name == name }),
              record.fault == nil, variant.stream == nil, !record.proxied, route.operation == nil, record.status > 0 else { return nil }
        let request = record.request
        var requestMembers: [(key: String, value: JSONValue)] = [("method", .string(request.method)), ("path", .string(request.path))]
        if !request.query.isEmpty { requestMembers.append(("query", PactWriter.query(request.query))) }
        let looked = Set(route.variants.flatMap { $0.condition?.headers.keys.map { $0.lowercased() } ?? [] })
        let headers = request.headers.filter { looked.contains($0.name.lowercased()) }
        if !headers.isEmpty { requestMembers.append(("headers", .object(headers.map { ($0.name, .string($0.value)) }))) }
        if !request.body.isEmpty { requestMembers.append(("body", PactWriter.body(request.body, headers: request.headers.map { HTTPHeader($0.name, $0.value) }))) }
        if !route.template.parameterNames.isEmpty {
            requestMembers.append(("matchingRules", .object([("path", PactWriter.rule(.object([
                ("match", .string("regex")), ("regex", .string(PactWriter.regex(for: route.template))),
            ])))])))
        }
        var responseMembers: [(key: String, value: JSONValue)] = [("status", .number(Double(record.status)))]
        let responseHeaders = variant.headers.filter { !["content-length", "date"].contains($0.name.lowercased()) }
        if !responseHeaders.isEmpty { responseMembers.append(("headers", .object(responseHeaders.map { ($0.name, .string($0.value)) }))) }
        var body = variant.body
        if let template = variant.template {
            var view = RequestView(request, route: route)
            body = template.render(&view)
        }
        if record.status != 304 && record.status != 204 && !body.isEmpty {
            responseMembers.append(("body", PactWriter.body(body, headers: variant.headers)))
            if variant.template != nil {
                responseMembers.append(("matchingRules", .object([("body", .object([("$", PactWriter.rule(.object([("match", .string("type"))])))]))])))
            }
        }
        return Interaction(description: "\(request.method) \(route.template.text) answers \(name) (\(route.id))",
                           state: "\(route.id) answers \(name)",
                           stateParams: .object([("route", .string(route.id)), ("variant", .string(name))]),
                           request: .object(requestMembers), response: .object(responseMembers))
    }

    /// `{"page": ["2"]}`: Pact 3's query, each name with all its values in order.
    static func query(_ pairs: [(name: String, value: String)]) -> JSONValue {
        var names: [String] = []
        var values: [String: [JSONValue]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(.string(value))
        }
        return .object(names.map { ($0, .array(values[$0] ?? [])) })
    }

    /// A body as Pact keeps it: JSON as JSON when the media type says JSON (or it parses), else text.
    static func body(_ bytes: [UInt8], headers: [HTTPHeader]) -> JSONValue {
        let type = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        if type.isEmpty || type.contains("json"), let json = try? JSONParser.parse(bytes) { return json }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// `{"matchers": [rule]}`, Pact 3's form of one matching rule.
    static func rule(_ matcher: JSONValue) -> JSONValue {
        .object([("matchers", .array([matcher])), ("combine", .string("AND"))])
    }

    /// A regex for the paths the template matches: `^/api/v1/users/[^/]+/?$`.
    static func regex(for template: PathTemplate) -> String {
        let escape = { (text: String) in
            String(text.flatMap { "\\^$.|?*+()[]{}".contains($0) ? ["\\", $0] : [$0] })
        }
        let pattern = template.segments.map { segment -> String in
            switch segment {
            case .literal(let text): return escape(text)
            case .parameter: return "[^/]+"
            case .pattern(let pattern):
                return pattern.pieces.map { piece in
                    if case .literal(let bytes) = piece { return escape(String(decoding: bytes, as: UTF8.self)) }
                    return "[^/]+"
                }.joined()
            }
        }.joined(separator: "/")
        return "^/" + pattern + "/?$"
    }
}
