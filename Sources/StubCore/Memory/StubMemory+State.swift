/// State values: named JSON values per service and scope, seeded from the service's
/// `_state.json`.
extension StubMemory {
    /// The seed's values as a store keeps them (orders follow the file).
    static func fields(of seed: [String: JSONValue]) -> [String: StoredField] {
        var out: [String: StoredField] = [:]
        for (i, key) in seed.keys.sorted().enumerated() { out[key] = StoredField(order: i, value: seed[key]!) }
        return out
    }

    /// One state value of a service in a scope: what requests stored, else the seed's.
    func stateValue(_ name: String, service: String, scope: Scope, seed: [String: JSONValue]) throws(MemoryError) -> JSONValue? {
        switch try store.field(name, of: .state(service: service), scope: scope) {
        case .unwritten: return seed[name]
        case .absent: return nil
        case .value(let field): return field.decoded
        }
    }

    /// Every state value of a service in a scope, by name.
    package func stateValues(service: String, scope: Scope, seed: [String: JSONValue]) throws(MemoryError) -> [(key: String, value: JSONValue)] {
        guard let fields = try store.fields(.state(service: service), scope: scope) else {
            return seed.keys.sorted().map { ($0, seed[$0]!) }
        }
        return fields.keys.sorted().compactMap { key in fields[key]!.decoded.map { (key, $0) } }
    }

    /// Applies one request's changes at once; the names changed come back for the journal. Past
    /// `limits.maxStateBytes` nothing changes and the error says so.
    func apply(_ changes: [StateChange], service: String, scope: Scope, seed: [String: JSONValue]) throws(MemoryError) -> Result<[String], MemoryRefusal> {
        guard !changes.isEmpty else { return .success([]) }
        let space = MemorySpace.state(service: service)
        let seeded = StubMemory.fields(of: seed)
        return try retrying { () throws(MemoryError) -> (CommitOutcome, Result<[String], MemoryRefusal>) in
            let current = try store.fields(space, scope: scope) ?? seeded
            var next = current
            var order = (current.values.map(\.order).max() ?? -1) + 1
            for change in changes {
                switch change {
                case .set(let name, let value):
                    next[name] = StoredField(order: next[name]?.order ?? order, value: value)
                    order += 1
                case .unset(let name):
                    next[name] = nil
                case .increment(let name, let by):
                    let base = next[name]?.decoded?.numberValue ?? 0
                    let sum = base + by
                    next[name] = StoredField(order: next[name]?.order ?? order, value: .number(sum))
                    order += 1
                }
            }
            let bytes = next.reduce(0) { $0 + $1.key.utf8.count + $1.value.json.utf8.count }
            if bytes > limits.maxStateBytes {
                return (.done, .failure(MemoryRefusal(status: 413, title: "State too large",
                        message: "this change would store \(bytes) bytes of state; the bound is \(limits.maxStateBytes) (--max-state-bytes)")))
            }
            let names = Set(changes.map(\.name))
            let writes = names.sorted().map { FieldWrite(key: $0, expected: current[$0], new: next[$0]) }
            let outcome = try commit(writes, to: space, scope: scope, seed: seeded)
            return (outcome, .success(names.sorted()))
        }
    }

    /// Replaces a service's state values in a scope (the admin API).
    package func replaceState(_ values: [(key: String, value: JSONValue)], service: String, scope: Scope) throws(MemoryError) {
        let space = MemorySpace.state(service: service)
        try store.reset(scope, space: space)
        var fields: [String: StoredField] = [:]
        for (i, member) in values.enumerated() { fields[member.key] = StoredField(order: i, value: member.value) }
        _ = try store.commit([], to: space, scope: scope, seed: fields, limit: nil)
    }

    /// A commit that sends the seed only when the store asks for it.
    func commit(_ writes: [FieldWrite], to space: MemorySpace, scope: Scope, seed: [String: StoredField], limit: Int? = nil) throws(MemoryError) -> CommitOutcome {
        let outcome = try store.commit(writes, to: space, scope: scope, seed: store.isRemote ? nil : seed, limit: limit)
        guard outcome == .needsSeed else { return outcome }
        return try store.commit(writes, to: space, scope: scope, seed: seed, limit: limit)
    }
}

/// A change refused for what it asks (too large, a full collection): the request's 4xx.
package struct MemoryRefusal: Error, Sendable {
    package var status: Int
    package var title: String
    package var message: String
}
