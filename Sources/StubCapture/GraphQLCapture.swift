import StubCore

/// GraphQL in captured traffic: a request naming one operation (a POST JSON body, or a GET's
/// query string) becomes part of that operation's route, told apart from its siblings by its
/// variables. Batches are left as plain requests.
enum GraphQLCapture {
    /// The operation a captured request sends: its name, kind and document; nil when it is not
    /// a single named GraphQL operation.
    static func operation(of exchange: CapturedExchange) -> (name: String, kind: String, document: String?)? {
        guard let request = parsed(exchange), let name = request.operationName, request.query != nil || request.persistedHash != nil else {
            return nil
        }
        let kind = request.query.flatMap { query in GraphQLDocument.operations(in: query).first { $0.name == name }?.kind } ?? "query"
        return (name, kind, request.query)
    }

    /// The request's variables by dotted path.
    static func variables(of exchange: CapturedExchange) -> [(path: String, value: String)] {
        parsed(exchange)?.flatVariables() ?? []
    }

    /// A variable is secret when any part of its path is a secret name (`input.password`).
    static func isSecret(_ path: String, policy: SecretPolicy) -> Bool {
        path.split(separator: ".").contains { policy.isSecret(String($0)) }
    }

    private static func parsed(_ exchange: CapturedExchange) -> GraphQLRequest? {
        guard exchange.method == "POST" || exchange.method == "GET" else { return nil }
        let contentType = exchange.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        if exchange.method == "POST" && !contentType.contains("json") && !contentType.contains("graphql") && exchange.requestBody.first != UInt8(ascii: "{") {
            return nil
        }
        guard case .success(.single(let request)) = GraphQLRequest.parse(method: exchange.method, body: exchange.requestBody, query: exchange.query) else {
            return nil
        }
        return request
    }
}
