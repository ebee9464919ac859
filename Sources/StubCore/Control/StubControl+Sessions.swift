/// The sessions a person looks at in the dashboard: who holds overrides, holds or requests.
extension StubControl {
    /// One session's state.
    package struct SessionSummary: Sendable {
        /// The session's name.
        package var name: String
        /// Its overrides by route id, sorted.
        package var overrides: [(route: String, override: RouteOverride)] = []
        /// Requests held now.
        package var held = 0
        /// Its entries in the journal.
        package var requests = 0
    }

    /// Every session with overrides, held requests or journal entries, by name.
    package func sessionSummaries() -> [SessionSummary] {
        var found: [String: SessionSummary] = [:]
        let (overrides, entries) = withState { s in (s.overrides, s.journal.entries) }
        for (scope, routes) in overrides {
            guard case .session(let name) = scope else { continue }
            found[name, default: SessionSummary(name: name)].overrides = routes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        for entry in entries {
            guard let name = entry.record.session else { continue }
            found[name, default: SessionSummary(name: name)].requests += 1
        }
        for (name, count) in holds.withLock({ $0.countsBySession() }) { found[name, default: SessionSummary(name: name)].held = count }
        return found.values.sorted { $0.name < $1.name }
    }
}
