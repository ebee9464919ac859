/// One GraphQL operation as a client sent it (GraphQL over HTTP: a POST JSON body, or the query
/// string of a GET): which operation it names, with its variables. Read with `JSONScanner`: the
/// body is checked whole, but only the operation's name and query become strings, and the
/// variables are read where they lie when a `when` asks for one.
package struct GraphQLRequest: Sendable, Equatable {
    /// The operation's name: `operationName`, or else the first named operation in the document.
    package var operationName: String?
    /// The SHA-256 of the query in hex (`extensions.persistedQuery.sha256Hash`), for a client
    /// that sends persisted queries (Apollo's automatic persisted queries, or ids from an
    /// operation manifest).
    package var persistedHash: String?
    /// The JSON text the request was read from, and where its parts are in it: the query's
    /// string, and the `variables` object. Strings are made only when asked for.
    private var source: [UInt8] = []
    private var queryRange: Range<Int>?
    private var queryText: String?
    private var variablesRange: Range<Int>?

    /// The query document, when sent (a persisted query may send only its hash).
    package var query: String? {
        get { queryText ?? queryRange.flatMap { JSONScanner(source).string(at: $0) } }
        set {
            queryText = newValue
            queryRange = nil
        }
    }

    /// What the body or the query string held: one operation, or a batch of them.
    package enum Parsed: Sendable, Equatable {
        case single(GraphQLRequest)
        case batch([GraphQLRequest])
    }

    /// Reads a request to a GraphQL endpoint. `body` is read for POST, `query` (name, value pairs)
    /// for GET. The failure says what was expected, or which of `limits` was passed.
    package static func parse(method: String, body: [UInt8], query: [(name: String, value: String)],
                              limits: GraphQLLimits = GraphQLLimits()) -> Result<Parsed, GraphQLFailure> {
        if method == "GET" { return parseGET(query, limits).map { .single($0) } }
        guard !body.isEmpty else { return .failure(GraphQLFailure("expected a JSON body with a query or an operationName")) }
        let scanner = JSONScanner(body)
        let start = scanner.skippingSpace(from: 0)
        switch scanner.kind(of: start..<body.count) {
        case UInt8(ascii: "{"):
            // One walk over the object checks it and finds the members; only space may follow.
            var request = GraphQLRequest(source: body)
            var failure: GraphQLFailure?
            guard let end = scanner.walkObject(from: start, { name, value in
                if failure == nil { failure = request.take(name, value, scanner, limits) }
            }), scanner.skippingSpace(from: end) == body.count else { return .failure(GraphQLFailure("the body is not JSON")) }
            if let failure = failure ?? complete(&request, limits) { return .failure(failure) }
            return .success(.single(request))
        case UInt8(ascii: "["):
            guard let whole = scanner.value(in: 0..<body.count) else { return .failure(GraphQLFailure("the body is not JSON")) }
            let items = scanner.elements(of: whole) ?? []
            guard !items.isEmpty else { return .failure(GraphQLFailure("an empty batch")) }
            guard items.count <= limits.batch else {
                return .failure(GraphQLFailure("a batch of \(items.count) operations; at most \(limits.batch) are answered (--graphql-max-batch)"))
            }
            var batch: [GraphQLRequest] = []
            for (index, item) in items.enumerated() {
                switch operation(scanner, item, limits) {
                case .success(let op): batch.append(op)
                case .failure(let failure): return .failure(GraphQLFailure("batch item \(index): \(failure.message)"))
                }
            }
            return .success(.batch(batch))
        default:
            guard let whole = scanner.value(in: 0..<body.count) else { return .failure(GraphQLFailure("the body is not JSON")) }
            return .failure(GraphQLFailure("expected a JSON object (or an array of them for a batch), found \(kindName(scanner.kind(of: whole)))"))
        }
    }

    private static func parseGET(_ query: [(name: String, value: String)], _ limits: GraphQLLimits) -> Result<GraphQLRequest, GraphQLFailure> {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        var request = GraphQLRequest()
        request.operationName = value("operationName").flatMap { $0.isEmpty ? nil : $0 }
        request.queryText = value("query")
        if let text = value("variables"), !text.isEmpty {
            let bytes = Array(text.utf8), scanner = JSONScanner(bytes)
            guard let range = scanner.value(in: 0..<bytes.count), scanner.kind(of: range) == UInt8(ascii: "{") else {
                return .failure(GraphQLFailure("the variables query parameter is not a JSON object"))
            }
            (request.source, request.variablesRange) = (bytes, range)
        }
        if let text = value("extensions"), !text.isEmpty {
            let bytes = Array(text.utf8), scanner = JSONScanner(bytes)
            guard let range = scanner.value(in: 0..<bytes.count), scanner.kind(of: range) == UInt8(ascii: "{") else {
                return .failure(GraphQLFailure("the extensions query parameter is not a JSON object"))
            }
            switch persistedHash(scanner, range) {
            case .success(let hash): request.persistedHash = hash
            case .failure(let failure): return .failure(failure)
            }
        }
        if let text = request.queryText, let failure = checkSize(text.utf8.count, limits) { return .failure(failure) }
        return completed(request, limits)
    }

    private static func operation(_ scanner: JSONScanner, _ range: Range<Int>, _ limits: GraphQLLimits) -> Result<GraphQLRequest, GraphQLFailure> {
        guard scanner.kind(of: range) == UInt8(ascii: "{") else {
            return .failure(GraphQLFailure("expected a JSON object, found \(kindName(scanner.kind(of: range)))"))
        }
        var request = GraphQLRequest(source: scanner.bytes)
        var failure: GraphQLFailure?
        _ = scanner.walkObject(from: range.lowerBound) { name, value in
            if failure == nil { failure = request.take(name, value, scanner, limits) }
        }
        if let failure { return .failure(failure) }
        return completed(request, limits)
    }

    /// Takes one member of a request object; the failure says what was expected.
    private mutating func take(_ name: Range<Int>, _ value: Range<Int>, _ scanner: JSONScanner, _ limits: GraphQLLimits) -> GraphQLFailure? {
        // Names are told apart by length first: one comparison per member, not four.
        guard name.count == 7 || name.count == 11 || name.count == 12 || name.count == 15 else { return nil }
        let kind = scanner.kind(of: value)
        if name.count == 15, scanner.name(name, equals: "operationName") {
            if kind == UInt8(ascii: "n") { return nil }
            guard kind == UInt8(ascii: "\"") else { return GraphQLFailure("operationName: expected a string, found \(GraphQLRequest.kindName(kind))") }
            guard let text = scanner.string(at: value) else {
                return GraphQLFailure("operationName: not a valid string (a lone surrogate, or an escape JSON does not have)")
            }
            operationName = text.isEmpty ? nil : text
        } else if name.count == 7, scanner.name(name, equals: "query") {
            if kind == UInt8(ascii: "n") { return nil }
            guard kind == UInt8(ascii: "\"") else { return GraphQLFailure("query: expected a string, found \(GraphQLRequest.kindName(kind))") }
            // Measured as sent (escapes included), before any of it is read.
            if let failure = GraphQLRequest.checkSize(value.count - 2, limits) { return failure }
            queryRange = value
        } else if name.count == 11, scanner.name(name, equals: "variables") {
            if kind == UInt8(ascii: "n") { return nil }
            guard kind == UInt8(ascii: "{") else { return GraphQLFailure("variables: expected an object, found \(GraphQLRequest.kindName(kind))") }
            variablesRange = value
        } else if name.count == 12, scanner.name(name, equals: "extensions"), kind == UInt8(ascii: "{") {
            switch GraphQLRequest.persistedHash(scanner, value) {
            case .success(let hash): persistedHash = hash
            case .failure(let failure): return failure
            }
        }
        return nil
    }

    /// `extensions.persistedQuery.sha256Hash`, lower-cased; nil when there is no persistedQuery.
    private static func persistedHash(_ scanner: JSONScanner, _ extensions: Range<Int>) -> Result<String?, GraphQLFailure> {
        guard let persisted = scanner.member("persistedQuery", of: extensions),
              scanner.kind(of: persisted) == UInt8(ascii: "{") else { return .success(nil) }
        guard let raw = scanner.member("sha256Hash", of: persisted),
              let hash = scanner.string(at: raw), !hash.isEmpty else {
            return .failure(GraphQLFailure("extensions.persistedQuery: expected a sha256Hash string"))
        }
        return .success(hash.lowercased())
    }

    /// The failure for a document of `bytes` over the limit, or nil.
    private static func checkSize(_ bytes: Int, _ limits: GraphQLLimits) -> GraphQLFailure? {
        guard bytes > limits.documentBytes else { return nil }
        return GraphQLFailure("the query document is \(bytes) bytes; at most \(limits.documentBytes) are read (--graphql-max-document)")
    }

    /// Checks the document's depth, names the operation from it when `operationName` did not,
    /// and checks that something names it.
    private static func complete(_ request: inout GraphQLRequest, _ limits: GraphQLLimits) -> GraphQLFailure? {
        if let query = request.query {
            if GraphQLDocument.nests(query, deeperThan: limits.depth) {
                return GraphQLFailure("the query document nests selections deeper than \(limits.depth) levels (--graphql-max-depth)")
            }
            // Read once: later readers (routing, `when`, the journal) take this copy.
            request.query = query
            if request.operationName == nil { request.operationName = GraphQLDocument.firstOperationName(in: query) }
        }
        guard request.queryRange != nil || request.queryText != nil || request.operationName != nil || request.persistedHash != nil else {
            return GraphQLFailure("expected a query or an operationName")
        }
        return nil
    }

    /// The request, completed, or why it cannot be.
    private static func completed(_ request: consuming GraphQLRequest, _ limits: GraphQLLimits) -> Result<GraphQLRequest, GraphQLFailure> {
        if let failure = complete(&request, limits) { return .failure(failure) }
        return .success(request)
    }

    private static func kindName(_ first: UInt8?) -> String {
        switch first {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case nil: return "nothing"
        default: return "a number"
        }
    }

    /// Every scalar variable by dotted path (`input.email`, `ids.0`), in the order sent: what a
    /// capture's `when` conditions are made of.
    package func flatVariables() -> [(path: String, value: String)] {
        guard let range = variablesRange else { return [] }
        let scanner = JSONScanner(source)
        var out: [(path: String, value: String)] = []
        func visit(_ range: Range<Int>, _ path: String) {
            switch scanner.kind(of: range) {
            case UInt8(ascii: "{"):
                for (name, value) in scanner.members(of: range) ?? [] {
                    guard let key = scanner.string(at: name) else { continue }
                    visit(value, path.isEmpty ? key : "\(path).\(key)")
                }
            case UInt8(ascii: "["):
                for (i, item) in (scanner.elements(of: range) ?? []).enumerated() { visit(item, "\(path).\(i)") }
            case UInt8(ascii: "n"):
                return
            default:
                if let text = scanner.text(of: range) { out.append((path, text)) }
            }
        }
        visit(range, "")
        return out
    }

    /// The `variables` object as compact JSON; nil when none were sent.
    package var variablesJSON: String? {
        variablesRange.flatMap { JSONScanner(source).text(of: $0) }
    }

    /// The variable at a dotted path (`input.email`, `ids.0`): strings as their text, other
    /// scalars as written, objects and arrays as compact JSON; nil when absent or null.
    package func variable(_ path: String) -> String? {
        guard let range = variablesRange else { return nil }
        return JSONScanner(source).text(atDotted: path, in: range)
    }
}

/// Why a request to a GraphQL endpoint could not be read.
package struct GraphQLFailure: Error, Sendable, Equatable {
    /// What was expected, for the error sent back.
    package let message: String

    init(_ message: String) {
        self.message = message
    }
}
