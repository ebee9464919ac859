#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Stubs that remember, from a test: read and set the state values that `then` changes and
/// `when.state` reads, fill or empty a collection before a screen shows it, and put the seeds
/// back. Each call is in the client's session (or the one it names), like the other calls: a
/// session's values and objects are its own, and start as the stub files' seeds.
extension StubdClient {
    /// One collection (a route folder whose route.json has `collection`) as the admin API lists it.
    public struct CollectionInfo: Decodable, Sendable, Equatable {
        /// The route folder's id, `app/todos`: what `collection(_:as:)` and the others take.
        public let id: String
        /// The list's full path, `/api/v1/todos`.
        public let path: String
        /// Objects in it now, in the scope asked about.
        public let count: Int
    }

    /// Every service's state values in the scope: service name (`""` for routes at the stub
    /// directory's root) → value name → value. A service is listed when it has a `_state.json`
    /// or a route that remembers.
    public func state(session: String? = nil) async throws -> [String: [String: JSON]] {
        try await call("GET", "state", session: session, as: StateList.self).state
    }

    /// One service's state values decoded as `T`: a struct whose properties are the value names
    /// (`struct Login: Decodable { let password: String }`), or `[String: JSON]`. Throws
    /// `DecodingError.keyNotFound` naming the service when it has no state values.
    public func state<T: Decodable>(of service: String, as type: T.Type, session: String? = nil) async throws -> T {
        let all = try await state(session: session)
        guard let values = all[service] else {
            let known = all.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw DecodingError.keyNotFound(Name(service), .init(codingPath: [Name("state")],
                debugDescription: "stubd has no state values for service \"\(service)\"; services with state: \(known.isEmpty ? "none" : known)"))
        }
        return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(values))
    }

    /// Replaces `service`'s state values in the scope with `values`, which must encode as a JSON
    /// object (a struct, `[String: Int]`…): names left out are gone, as after an `unset`. The next
    /// request's `when.state` and `{{state.NAME}}` see them.
    public func setState<T: Encodable>(_ values: T, for service: String, session: String? = nil) async throws {
        try await send("PUT", "state", body: JSONEncoder().encode([service: values]), session: session)
    }

    /// `setState(_:for:session:)` for values of mixed types written as a literal:
    /// `setState(["password": "s3cret", "loggedIn": true], for: "app")`.
    public func setState(_ values: [String: JSON], for service: String, session: String? = nil) async throws {
        try await send("PUT", "state", body: JSONEncoder().encode([service: values]), session: session)
    }

    /// Puts the scope's memory back as the stub files seed it: every service's state values, every
    /// collection's objects, and the scope's random seed (`setSeed`).
    public func resetState(session: String? = nil) async throws {
        try await send("DELETE", "state", session: session)
    }

    /// Seeds the scope's `{{uuid}}`, `{{random.…}}` and `{{fake.…}}` values, so a run draws the
    /// same ones every time; nil goes back to the server's seed (`--seed`).
    public func setSeed(_ seed: UInt64?, session: String? = nil) async throws {
        try await send("PUT", "seed", json: ["seed": seed.map { NSNumber(value: $0) } ?? NSNull()], session: session)
    }

    /// Every collection with the number of objects it holds in the scope.
    public func collections(session: String? = nil) async throws -> [CollectionInfo] {
        try await call("GET", "collections", session: session, as: CollectionList.self).collections
    }

    /// The objects of collection `id` (`app/todos`) in the scope, in list order, decoded as `T` (a
    /// model of the app's, or `JSON`). An unknown id throws `StubdClientError.status(404, …)`
    /// naming it and the collections there are.
    public func collection<T: Decodable>(_ id: String, as type: T.Type, session: String? = nil) async throws -> [T] {
        try await call("GET", "collections/" + id, session: session, as: Objects<T>.self).objects
    }

    /// Replaces the objects of collection `id` in the scope, in this order (an empty list empties
    /// it). Each must encode as a JSON object with the collection's id field (`id` unless its
    /// route.json names another), each id once.
    public func replaceCollection<T: Encodable>(_ id: String, with objects: [T], session: String? = nil) async throws {
        try await send("PUT", "collections/" + id, body: JSONEncoder().encode(objects), session: session)
    }

    /// Puts collection `id` back to its seed (`"seed"` in its route.json) in the scope.
    public func resetCollection(_ id: String, session: String? = nil) async throws {
        try await send("DELETE", "collections/" + id, session: session)
    }

    struct StateList: Decodable { let state: [String: [String: JSON]] }
    struct CollectionList: Decodable { let collections: [CollectionInfo] }
    struct Objects<T: Decodable>: Decodable { let objects: [T] }

    /// A coding key for `DecodingError`'s path.
    struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
