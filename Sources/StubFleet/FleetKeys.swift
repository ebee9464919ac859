import StubCore

/// The names of the fleet's keys and channels in the store, all under `stubd:`. A scope is
/// written `g` (global) or `s<length>:<name>`, so no session name can pass for another key.
enum FleetKeys {
    /// Counts changes to overrides; every change is announced on `changes` with the new value.
    static let version = "stubd:version"
    /// Change notices (the new version).
    static let changes = "stubd:changes"
    /// Release notices: `replica<TAB>ticket` lines.
    static let release = "stubd:release"
    /// The scopes that have overrides (a set).
    static let scopes = "stubd:scopes"
    /// Sessions by last use, for the session cap (a sorted set).
    static let sessions = "stubd:sessions"
    /// Every held-request list ever written (a set), for a reset.
    static let heldLists = "stubd:held-lists"
    /// Scopes that have journal streams (a set).
    static let journalScopes = "stubd:journal-scopes"
    /// Numbers journal entries across the fleet.
    static let journalSequence = "stubd:journal-seq"
    /// Counts journal reads: a reader takes the next number and waits until every replica has
    /// sent what it held when it saw that number.
    static let journalEpoch = "stubd:journal-epoch"
    /// Replicas that have reported in (a set); each has a `replica:NAME` key that expires.
    static let replicas = "stubd:replicas"

    static func scopeKey(_ scope: Scope) -> String {
        switch scope {
        case .global: return "g"
        case .session(let name): return "s\(name.utf8.count):\(name)"
        }
    }

    /// The scope a `scopeKey` names; nil for anything else.
    static func scope(_ key: String) -> Scope? {
        if key == "g" { return .global }
        guard key.first == "s", let colon = key.firstIndex(of: ":"), let length = Int(key[key.index(after: key.startIndex)..<colon]) else { return nil }
        let name = String(key[key.index(after: colon)...])
        return name.utf8.count == length ? .session(name) : nil
    }

    /// A scope's overrides: route id → `token<LF>override JSON` (a hash).
    static func overrides(_ scope: Scope) -> String { "stubd:overrides:" + scopeKey(scope) }
    /// One sequence's step counter.
    static func step(_ token: String) -> String { "stubd:step:" + token }
    /// The requests held for a route in a scope, oldest first (a list of `replica<TAB>ticket`).
    static func held(_ scope: Scope, _ routeID: String) -> String { heldPrefix(scope) + routeID }
    static func heldPrefix(_ scope: Scope) -> String { "stubd:held:" + scopeKey(scope) + "|" }
    /// A scope's journal (a stream capped near the journal size).
    static func journal(_ scope: Scope) -> String { "stubd:journal:" + scopeKey(scope) }
    /// Set by a replica once it has sent journal entries: a store without it lost them.
    static func journalSent(_ name: String) -> String { "stubd:journal-sent:" + name }
    /// The newest journal epoch one replica had sent everything for.
    static func flushed(_ name: String) -> String { "stubd:flushed:" + name }
    /// The newest version one replica serves.
    static func applied(_ name: String) -> String { "stubd:applied:" + name }
    /// What one replica last reported.
    static func replica(_ name: String) -> String { "stubd:replica:" + name }
}
