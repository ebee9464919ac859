import StubSystem

/// What dropping a journal entry will write to, as identities and spans (nothing is kept alive
/// by them): the packed request, whose memory the next request's copy is handed, the plan's
/// storage, whose fields freeing it reads, and the route and variant whose counts it releases.
/// The entry was last touched a journal's length of requests ago, and with many routes its route
/// and variant were too, so the journal asks for them one append ahead
/// (`RequestJournal.append`). Kept for its measured gain: server CPU per request on the
/// 10,000-route table 0.95× with it (paired runs, bench/README.md); nothing on the small fixture.
struct JournalDropHint: Sendable {
    var plan: ObjectIdentifier?
    var route: ObjectIdentifier?
    var variant: ObjectIdentifier?
    var request: Prefetch.Span?

    /// Asks for the lines the drop writes and reads.
    @inline(__always)
    func prefetch() {
        // The plan's storage spans four lines; freeing it reads every reference among them.
        Prefetch.release(request, plan, lines: 4, route, variant)
    }
}

extension ResponsePlan {
    /// The objects freeing this plan writes to (see `JournalDropHint`).
    var dropHint: JournalDropHint {
        JournalDropHint(plan: storageIdentity, route: route.map(ObjectIdentifier.init), variant: variant.map(ObjectIdentifier.init))
    }
}
