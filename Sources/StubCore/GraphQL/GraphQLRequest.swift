/// One GraphQL operation as a client sent it (GraphQL over HTTP: a POST JSON body, or the query
/// string of a GET): which operation it names, with its variables.
package struct GraphQLRequest: Sendable, Equatable {
    /// The operation's name: `operationName`, or else the first named operation in the document.
    package var operationName: String?
    /// The query document, when sent (a persisted query may send only its hash).
    package var query: String?
    /// The `variables` object; `.null` when none were sent.
    package var variables: JSONValue
    /// The SHA-256 of the query in hex (`extensions.persistedQuery.sha256Hash`), for a client
    /// that sends persisted queries (Apollo's automatic persisted queries, or ids from an
    /// operation manifest).
    package var persistedHash: String?

    /// What the body or the query string held: one operation, or a batch of them.
    package enum Parsed: Sendable, Equatable {
        case single(GraphQLRequest)
        case batch([GraphQLRequest])
    }

    /// Reads a request to a GraphQL endpoint. `body` is read for POST, `query` (name, value pairs)
    /// for GET. The failure says what was expected.
    package static func parse(method: String, body: [UInt8], query: [(name: String, value: String)]) -> Result<Parsed, GraphQLFailure> {
        if method == "GET" {
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            var variables = JSONValue.null
            if let text = value("variables"), !text.isEmpty {
                guard let parsed = try? JSONParser.parse(Array(text.utf8)), case .object = parsed else {
                    return .failure(GraphQLFailure("the variables query parameter is not a JSON object"))
                }
                variables = parsed
            }
            var extensions = JSONValue.null
            if let text = value("extensions"), !text.isEmpty {
                guard let parsed = try? JSONParser.parse(Array(text.utf8)), case .object = parsed else {
                    return .failure(GraphQLFailure("the extensions query parameter is not a JSON object"))
                }
                extensions = parsed
            }
            return operation(query: value("query"), name: value("operationName"), variables: variables, extensions: extensions).map { .single($0) }
        }
        guard !body.isEmpty else { return .failure(GraphQLFailure("expected a JSON body with a query or an operationName")) }
        guard let json = try? JSONParser.parse(body) else { return .failure(GraphQLFailure("the body is not JSON")) }
        switch json {
        case .object:
            return operation(from: json).map { .single($0) }
        case .array(let items):
            guard !items.isEmpty else { return .failure(GraphQLFailure("an empty batch")) }
            var batch: [GraphQLRequest] = []
            for (index, item) in items.enumerated() {
                switch operation(from: item) {
                case .success(let op): batch.append(op)
                case .failure(let failure): return .failure(GraphQLFailure("batch item \(index): \(failure.message)"))
                }
            }
            return .success(.batch(batch))
        default:
            return .failure(GraphQLFailure("expected a JSON object (or an array of them for a batch), found \(json.kindDescription)"))
        }
    }

    private static func operation(from json: JSONValue) -> Result<GraphQLRequest, GraphQLFailure> {
        guard case .object(let members) = json else {
            return .failure(GraphQLFailure("expected a JSON object, found \(json.kindDescription)"))
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }
        var query: String?, name: String?
        switch member("query") {
        case nil, .null?: break
        case .string(let text)?: query = text
        case let other?: return .failure(GraphQLFailure("query: expected a string, found \(other.kindDescription)"))
        }
        switch member("operationName") {
        case nil, .null?: break
        case .string(let text)?: name = text.isEmpty ? nil : text
        case let other?: return .failure(GraphQLFailure("operationName: expected a string, found \(other.kindDescription)"))
        }
        let variables = member("variables") ?? .null
        switch variables {
        case .null, .object: break
        default: return .failure(GraphQLFailure("variables: expected an object, found \(variables.kindDescription)"))
        }
        return operation(query: query, name: name, variables: variables, extensions: member("extensions") ?? .null)
    }

    private static func operation(query: String?, name: String?, variables: JSONValue, extensions: JSONValue) -> Result<GraphQLRequest, GraphQLFailure> {
        var hash: String?
        if case .object(let members) = extensions, case .object(let persisted)? = members.first(where: { $0.key == "persistedQuery" })?.value {
            guard case .string(let text)? = persisted.first(where: { $0.key == "sha256Hash" })?.value, !text.isEmpty else {
                return .failure(GraphQLFailure("extensions.persistedQuery: expected a sha256Hash string"))
            }
            hash = text.lowercased()
        }
        let named = name ?? query.flatMap { GraphQLDocument.firstOperationName(in: $0) }
        guard query != nil || named != nil || hash != nil else {
            return .failure(GraphQLFailure("expected a query or an operationName"))
        }
        return .success(GraphQLRequest(operationName: named, query: query, variables: variables, persistedHash: hash))
    }

    /// The variable at a dotted path (`input.email`, `ids.0`): scalars as their text, the rest
    /// as JSON; nil when absent.
    package func variable(_ path: String) -> String? {
        var value = variables
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch value {
            case .object(let members):
                guard let next = members.first(where: { $0.key == key })?.value else { return nil }
                value = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
        }
        return value.scalarText ?? (value == .null ? nil : value.serialized())
    }
}

/// Why a request to a GraphQL endpoint could not be read.
package struct GraphQLFailure: Error, Sendable, Equatable {
    package let message: String

    init(_ message: String) {
        self.message = message
    }
}
