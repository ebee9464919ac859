/// What a stub directory gives memory: each service's initial state values (`_state.json`) and
/// its collections, fixed for one catalog (a reload makes a new one).
package struct MemoryCatalog: Sendable {
    /// Initial state values by service ("" for `_state.json` at the top).
    package let stateSeeds: [String: [String: JSONValue]]
    /// Collections by id (`app/todos`), in route order.
    package let collections: [CollectionSpec]
    private let collectionsByID: [String: CollectionSpec]

    /// Gathers the collections of `routes` beside the state seeds.
    package init(stateSeeds: [String: [String: JSONValue]], routes: [Route]) {
        self.stateSeeds = stateSeeds
        var seen = Set<String>()
        collections = routes.compactMap { route in
            guard let spec = route.memory?.collection?.spec, seen.insert(spec.id).inserted else { return nil }
            return spec
        }
        collectionsByID = Dictionary(collections.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// A service's initial state (empty without `_state.json`).
    package func stateSeed(_ service: String) -> [String: JSONValue] { stateSeeds[service] ?? [:] }

    /// The collection with that id.
    package func collection(_ id: String) -> CollectionSpec? { collectionsByID[id] }

    /// The services with state: those with a seed, and those whose routes remember.
    package func services(routes: [Route]) -> [String] {
        Set(stateSeeds.keys).union(routes.compactMap { $0.memory?.collection == nil ? $0.memory?.service : nil }).sorted()
    }
}
