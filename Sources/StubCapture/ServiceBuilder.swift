#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Builds one service of a `CaptureLayout` from one host's exchanges.
struct ServiceBuilder {
    let host: String
    let exchanges: [CapturedExchange]
    let options: CaptureLayout.Options
    let policy: SecretPolicy

    /// Requests of one method and path shape, or of one GraphQL operation.
    struct Group {
        var method: String
        var indices: [Int] = []
        var segments: [[String]] = []
        var parameters: [String?] = []
        /// The operation, for a group of GraphQL requests.
        var operation: (name: String, kind: String, document: String?)? = nil
    }

    /// The group's declared parameters (Postman's `:id`) as parameters under their own names;
    /// a guessed parameter that would share a name is renamed by its place.
    func declareParameters(_ group: inout Group) {
        var declared: [Int: String] = [:]
        for index in group.indices { declared.merge(exchanges[index].pathVariables) { first, _ in first } }
        guard !declared.isEmpty else { return }
        for (position, name) in declared where position < group.parameters.count { group.parameters[position] = name }
        let names = Set(declared.values)
        for position in group.parameters.indices where declared[position] == nil {
            if let name = group.parameters[position], names.contains(name) { group.parameters[position] = "p\(position)" }
        }
    }

    func build(name: String, report: inout RedactionReport) -> CaptureLayout.Service {
        var order: [String] = []
        var groups: [String: Group] = [:]
        // GraphQL requests to the host's first GraphQL endpoint are grouped by operation.
        var endpoint: String?
        for (index, exchange) in exchanges.enumerated() {
            let segments = PathTemplating.segments(exchange.path)
            // A declared parameter groups by its place, whatever its value.
            let shaped = segments.indices.map { exchange.pathVariables[$0] == nil ? segments[$0] : "{}" }
            var key = PathTemplating.shapeKey(method: exchange.method, segments: shaped, templates: options.templates)
            let graphQL = GraphQLCapture.operation(of: exchange).flatMap { op in endpoint == nil || endpoint == exchange.path ? op : nil }
            if let graphQL {
                endpoint = exchange.path
                key = "GRAPHQL \(graphQL.name)"
            }
            if groups[key] == nil {
                order.append(key)
                groups[key] = Group(method: exchange.method, operation: graphQL)
            }
            groups[key]?.indices.append(index)
            groups[key]?.segments.append(segments)
            if groups[key]?.operation?.document == nil, let document = graphQL?.document { groups[key]?.operation?.document = document }
        }
        var all = order.compactMap { groups[$0] }
        for g in all.indices {
            all[g].parameters = PathTemplating.parameters(of: all[g].segments, templates: options.templates)
            declareParameters(&all[g])
        }
        let prefix = basePathSegments(all)
        var used = Set<String>()
        var routes: [CaptureLayout.Route] = []
        for group in all {
            var route = RouteBuilder(group: group, exchanges: exchanges, prefixCount: prefix.count, policy: policy, byShape: options.secretsByShape).build(serviceName: name, report: &report)
            var folder = route.folder
            var n = 2
            while used.contains(folder.lowercased()) { folder = "\(route.folder)-\(n)"; n += 1 }
            used.insert(folder.lowercased())
            route.folder = folder
            routes.append(route)
        }
        // Sequence hints name the route; fix them now that folders are final.
        for r in routes.indices { routes[r].description = routes[r].description?.replacing("{route}", with: "\(name)/\(routes[r].folder)") }
        var service = CaptureLayout.Service(name: name, host: host, basePath: prefix.isEmpty ? "" : "/" + prefix.joined(separator: "/"), routes: routes)
        if let endpoint { service.graphqlPath = "/" + PathTemplating.segments(endpoint).dropFirst(prefix.count).joined(separator: "/") }
        return service
    }

    /// The literal segments every route starts with, never a route's last segment or a parameter;
    /// or the `basePath` asked for, when every path starts with it.
    func basePathSegments(_ groups: [Group]) -> [String] {
        if let asked = options.basePath {
            let wanted = PathTemplating.segments(asked)
            let fits = groups.allSatisfy { g in g.segments[0].count > wanted.count && Array(g.segments[0].prefix(wanted.count)) == wanted
                && !g.parameters.prefix(wanted.count).contains { $0 != nil } }
            if fits { return wanted }
        }
        var common: [String]?
        for group in groups {
            let first = group.segments[0]
            let literal = zip(first, group.parameters).prefix { $0.1 == nil }.map(\.0)
            let candidate = Array(literal.prefix(max(0, first.count - 1)))
            if let known = common {
                common = Array(zip(known, candidate).prefix { $0.0 == $0.1 }.map(\.0))
            } else {
                common = candidate
            }
        }
        return options.basePath == "/" ? [] : (common ?? [])
    }
}
