/// Conditions on a request that select a variant (`when` in route.json).
///
/// Every listed value must match exactly; `"*"` only asks that the value be present.
public struct RequestCondition: Sendable, Equatable {
    /// Path template parameters.
    public var path: [String: String] = [:]
    /// Query parameters (percent-decoded); a name given more than once matches when any value does.
    public var query: [String: String] = [:]
    /// Headers; names compare case-insensitively.
    public var headers: [String: String] = [:]
    /// Top-level fields of a JSON or form-encoded body.
    public var body: [String: String] = [:]
    /// A GraphQL operation's variables, by dotted path (`input.email`); only operation routes
    /// have them.
    public var variables: [String: String] = [:]

    /// Makes a condition.
    public init(path: [String: String] = [:], query: [String: String] = [:], headers: [String: String] = [:], body: [String: String] = [:]) {
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// True when the request behind `view` satisfies every listed value; `skippingPath` when the
    /// path parameters were already checked (`PathCondition`). The condition is read where it
    /// lies: copying it out would retain each of its dictionaries.
    func holds(for view: inout RequestView, skippingPath: Bool = false) -> Bool {
        // Plain loops rather than closures over `view`: this runs for every variant with a `when`.
        // Most conditions list one kind of value; an empty dictionary is not even iterated.
        if !skippingPath && !path.isEmpty {
            for (name, want) in path {
                guard let got = view.parameter(name), want == "*" || got == want else { return false }
            }
        }
        if !query.isEmpty {
            for (name, want) in query {
                let got = view.queryValues(name)
                guard !got.isEmpty, want == "*" || got.contains(want) else { return false }
            }
        }
        if !headers.isEmpty {
            for (name, want) in headers {
                guard let got = view.header(name), want == "*" || got == want else { return false }
            }
        }
        if !body.isEmpty {
            for (name, want) in body {
                guard let got = view.bodyField(name), want == "*" || got == want else { return false }
            }
        }
        if !variables.isEmpty {
            for (name, want) in variables {
                guard let got = view.graphQL?.variable(name), want == "*" || got == want else { return false }
            }
        }
        return true
    }
}
