/// Where the values that requests change are kept: one store per server, local or a fleet's
/// Valkey/Redis. Everything a route remembers (state values, collections) is a *space* of
/// fields (name or id → JSON text) per scope; the rules (effects, CRUD, merge patch, paging)
/// live once, in `StubMemory`, and a store only keeps fields and compares-and-sets them.
///
/// A space the store has never written reads as nil: its values are then the seed's, read from
/// the catalog without a copy, so a session costs nothing until it changes something, and a
/// reload's new seed shows wherever requests changed nothing.
package protocol MemoryStore: AnyObject, Sendable {
    /// True when a call waits on the network (a fleet's store): requests that remember are then
    /// planned on the store's own thread (`perform`), never on a thread serving requests.
    var isRemote: Bool { get }
    /// True when the calling thread may call the store now: always for a local store; for a
    /// fleet's, only on its own thread (a request elsewhere waits and is planned there).
    var callableHere: Bool { get }
    /// Runs `job` on the store's thread (at once, on the caller's, for a local store).
    func perform(_ job: @escaping @Sendable () -> Void)
    /// Every field of a space, or nil when the store has not written it.
    func fields(_ space: MemorySpace, scope: Scope) throws(MemoryError) -> [String: StoredField]?
    /// Every field of a space in order (the order each was first written), or nil when the store
    /// has not written it.
    func ordered(_ space: MemorySpace, scope: Scope) throws(MemoryError) -> [StoredField]?
    /// One field of a space: `.unwritten` when the store has not written the space.
    func field(_ key: String, of space: MemorySpace, scope: Scope) throws(MemoryError) -> FieldRead
    /// Applies `writes` at once when every field still holds what the write expects; false (and
    /// nothing written) otherwise, and the caller reads again. A space not written yet is first
    /// filled with `seed` (nil: the caller sends it when told `.needsSeed`). With `limit`, a
    /// commit that would leave the space with more fields is `.full` (checked in the same step,
    /// so replicas adding at once cannot pass it together).
    func commit(_ writes: [FieldWrite], to space: MemorySpace, scope: Scope, seed: [String: StoredField]?, limit: Int?) throws(MemoryError) -> CommitOutcome
    /// The space's counter moved on by one, starting after `floor` (generated integer ids).
    func nextNumber(_ space: MemorySpace, scope: Scope, floor: Int) throws(MemoryError) -> Int
    /// Forgets what requests wrote in a scope (every space, or one): seeds show again.
    func reset(_ scope: Scope, space: MemorySpace?) throws(MemoryError)
    /// A store that outlives this process lets a session's spaces expire this long after their
    /// last change (a local store forgets idle sessions through `StubMemory` instead).
    func expireSessions(afterSeconds seconds: Int)
    /// The spaces written in a scope.
    func writtenSpaces(scope: Scope) throws(MemoryError) -> [MemorySpace]
}

/// One kind of remembered values: a service's state, or one collection.
package enum MemorySpace: Hashable, Sendable {
    /// The state values of a service ("" for routes outside a service).
    case state(service: String)
    /// The objects of a collection, by its folder (`app/todos`).
    case collection(String)

    /// The space's name in a store's keys and in messages.
    package var key: String {
        switch self {
        case .state(let service): return "state:" + service
        case .collection(let id): return "collection:" + id
        }
    }

    /// The space a store key names.
    package init?(key: String) {
        if key.hasPrefix("state:") { self = .state(service: String(key.dropFirst(6))) }
        else if key.hasPrefix("collection:") { self = .collection(String(key.dropFirst(11))) }
        else { return nil }
    }
}

/// One stored value: JSON text, and the order it was first written in (a collection lists its
/// objects in that order). A local store keeps the parsed value beside the text, so listing a
/// large collection parses nothing; two fields are equal when their order and text are.
package struct StoredField: Sendable, Equatable {
    /// When the field was first written, on the space's own count.
    package var order: Int
    /// The value's compact JSON text.
    package var json: String
    /// The value, when it is at hand.
    private var parsed: JSONValue?

    /// A field read back from text.
    package init(order: Int, json: String) {
        self.order = order
        self.json = json
    }

    /// A field of a value.
    package init(order: Int, value: JSONValue) {
        self.order = order
        json = value.serialized()
        parsed = value
    }

    /// The value (parsed from its text when not at hand); nil for text that is not JSON.
    package var decoded: JSONValue? {
        parsed ?? (try? JSONParser.parse(json))
    }

    package static func == (lhs: StoredField, rhs: StoredField) -> Bool {
        lhs.order == rhs.order && lhs.json == rhs.json
    }
}

/// What reading one field found.
package enum FieldRead: Sendable, Equatable {
    /// The store has not written the space: read the seed.
    case unwritten
    /// The space is written and holds no such field.
    case absent
    /// The field's value.
    case value(StoredField)
}

/// One change in a commit: the field must hold `expected` (nil: be absent) for it to happen.
package struct FieldWrite: Sendable {
    /// The field's name or id.
    package var key: String
    /// What the field must hold now; nil when it must be absent; `.some(nil)` never matters.
    package var expected: StoredField?
    /// True when `expected` is checked at all (an increment reads first; a blind set does not).
    package var checks: Bool
    /// The new value; nil removes the field.
    package var new: StoredField?

    /// Makes a write.
    package init(key: String, expected: StoredField?, checks: Bool = true, new: StoredField?) {
        self.key = key
        self.expected = expected
        self.checks = checks
        self.new = new
    }
}

/// How a commit ended.
package enum CommitOutcome: Sendable, Equatable {
    /// Written.
    case done
    /// A field no longer held what was expected: read again and retry.
    case conflict
    /// The space is not written yet: commit again with its seed.
    case needsSeed
    /// The space would hold more fields than the commit's limit: nothing written.
    case full
}

/// A store that did not answer in time (a fleet's store unreachable).
package struct MemoryError: Error, Sendable {
    /// What failed.
    package var message: String

    /// Makes an error.
    package init(_ message: String) { self.message = message }
}
