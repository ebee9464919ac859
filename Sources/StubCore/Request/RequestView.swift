/// One request as `when` conditions and templates read it: control query parameters hidden, path
/// parameters read from the path only when asked for, and the body parsed at most once however
/// many conditions read it.
struct RequestView {
    let head: any RequestHead
    private let parameters: PathParameters
    /// The route whose template reads the parameters from the path; nil when they were captured
    /// before. An identity, not a reference: asking costs no retain.
    private let routeIdentity: ObjectIdentifier?
    private var fields: [String: String]?
    /// The body parsed as JSON, for values deeper than the top level (`.some(nil)`: not JSON).
    private var json: JSONValue??
    /// What the route remembers, as this request reads it; nil for a route without state.
    var memory: MemoryView?
    /// The GraphQL operation the request carries, for an operation route. Kept behind a
    /// reference: a view is made for every request, and most carry none.
    var graphQL: GraphQLRequest? {
        get { graphQLBox?.request }
        set { graphQLBox = newValue.map(GraphQLBox.init) }
    }
    private var graphQLBox: GraphQLBox?

    private final class GraphQLBox {
        let request: GraphQLRequest
        init(_ request: GraphQLRequest) { self.request = request }
    }

    /// A view of a request matched to `route`. The view keeps the route, not a copy of its
    /// template: copying retains the template's text and segments, two more places a request to a
    /// route not used for a while waits for memory.
    init(_ head: any RequestHead, route: Route) {
        self.head = head
        parameters = .route(route)
        routeIdentity = ObjectIdentifier(route)
    }

    /// A view with parameters already captured (in-memory requests in tests and tools).
    init(_ head: any RequestHead, parameters: [String: String]) {
        self.head = head
        self.parameters = .captured(parameters)
        routeIdentity = nil
    }

    func header(_ name: String) -> String? {
        head.header(name)
    }

    func query(_ name: String) -> String? {
        RequestControls.queryNames.contains(name) ? nil : head.queryValue(name)
    }

    func queryValues(_ name: String) -> [String] {
        RequestControls.queryNames.contains(name) ? [] : head.queryValues(name)
    }

    func parameter(_ name: String) -> String? {
        switch parameters {
        case .captured(let values): return values[name]
        case .route(let route): return route.template.value(of: name, in: head.path)
        }
    }

    /// Whether the path parameters satisfy `condition`, resolved for `route`, read from the path's
    /// bytes; nil without one, or for a view of another route or with parameters captured before.
    func pathHolds(_ condition: borrowing PathCondition?, of route: ObjectIdentifier) -> Bool? {
        guard routeIdentity == route, let condition = copy condition else { return nil }
        var path = head.path
        return path.withUTF8 { condition.holds(in: $0) }
    }

    mutating func bodyField(_ name: String) -> String? {
        if fields == nil { fields = BodyFields.parse(head.body, contentType: head.header("Content-Type")) }
        return fields?[name]
    }

    /// The value at `path` (member names, array indices) in a JSON body; a form body's top-level
    /// field as a string.
    mutating func bodyValue(at path: [String]) -> JSONValue? {
        if json == nil { json = .some(try? JSONParser.parse(head.body)) }
        guard let root = json ?? nil else {
            return path.count == 1 ? bodyField(path[0]).map(JSONValue.string) : nil
        }
        // A top-level name with dots in it is found whole before it is read as a path.
        if path.count > 1, let whole = root[path.joined(separator: ".")] { return whole }
        var value = root
        for step in path {
            switch value {
            case .object: guard let next = value[step] else { return nil }; value = next
            case .array(let items): guard let i = Int(step), items.indices.contains(i) else { return nil }; value = items[i]
            default: return nil
            }
        }
        return value
    }

    private enum PathParameters {
        case route(Route)
        case captured([String: String])
    }
}
