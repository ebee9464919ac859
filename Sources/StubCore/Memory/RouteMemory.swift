/// What a route remembers, set at load time only on routes that read or change state, draw
/// values that move, or are a collection: planning asks `Route.memory` once and a route
/// without it never reaches the store.
package final class RouteMemory: Sendable {
    /// The service whose state the route reads ("" outside one).
    package let service: String
    /// For a collection's route: its spec and what this route does.
    package let collection: (spec: CollectionSpec, action: CollectionAction)?

    /// The variant name of a collection route's own answer (its default).
    package static let collectionVariant = "collection"

    /// Makes a route's memory.
    package init(service: String, collection: (spec: CollectionSpec, action: CollectionAction)? = nil) {
        self.service = service
        self.collection = collection
    }

    /// True when the variant needs memory to be chosen or answered.
    static func needed(by variant: Variant) -> Bool {
        variant.memory != nil || variant.template?.remembers == true || variant.conversation?.remembers == true
    }
}
