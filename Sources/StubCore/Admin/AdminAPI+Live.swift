#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /__stubd/journal/stream`: the journal as server-sent events, for the dashboard and for
/// scripts (`curl -N`). It opens with `event: hello` naming the journal's last id. Each answered request is an `event: request` whose data is the entry as
/// `GET /__stubd/journal` gives it; `event: change` says overrides, holds or sessions changed;
/// `event: dropped` says how many entries a reader did not get (it fell behind, or more than 2,000
/// a second arrived), by status class, so a chart stays true.
extension AdminAPI {
    func stream(_ request: StubRequest, session: String?) -> ResponsePlan.Response {
        guard request.method == "GET" else { return .reply(notAllowed(["GET"])) }
        var filter: JournalFilter
        switch self.filter(from: request) {
        case .failure(let f): return .reply(f.reply)
        case .success(let f): filter = f
        }
        // A browser's EventSource reconnects with the last id it saw.
        if filter.sinceID == nil, let last = request.header("Last-Event-ID"), let id = Int(last) { filter.sinceID = id }
        guard let reader = control.feed.open(scope: filter.allSessions ? nil : Scope(session), filter: filter) else {
            return .reply(.error(503, "too many journal streams open", [("limit", .number(Double(control.feed.capacity))),
                                                                       ("hint", .string("close a dashboard tab or a script reading the stream"))]))
        }
        // Entries already journaled are read after the reader opened, so none falls between the
        // two; past the first 1,000 asked for, they are counted as dropped, not sent.
        var initial: [RequestJournal.Entry] = []
        var cut = JournalFeed.Dropped()
        if filter.sinceID != nil || filter.sinceTime != nil {
            var backlog = filter
            backlog.limit = nil
            initial = control.journal(session: session, filter: backlog)
            let kept = min(filter.limit ?? 1000, 1000)
            for entry in initial.dropLast(kept) { cut.add(entry) }
            initial = Array(initial.suffix(kept))
        }
        return .live(LiveJournal(feed: control.feed, reader: reader, initial: initial, initialDropped: cut, lastID: control.lastJournalID))
    }
}
