#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /__stubd/journal/stream`: the journal as server-sent events, for the dashboard and for
/// scripts (`curl -N`). Each answered request is an `event: request` whose data is the entry as
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
        guard let reader = control.feed.open(scope: filter.allSessions ? nil : Scope(session)) else {
            return .reply(.error(503, "too many journal streams open", [("limit", .number(Double(control.feed.capacity))),
                                                                       ("hint", .string("close a dashboard tab or a script reading the stream"))]))
        }
        // Entries already journaled are read after the reader opened, so none falls between the two.
        var initial: [RequestJournal.Entry] = []
        if filter.sinceID != nil || filter.sinceTime != nil {
            var backlog = filter
            backlog.limit = min(filter.limit ?? 1000, 1000)
            initial = control.journal(session: session, filter: backlog)
        }
        var liveFilter = filter
        liveFilter.sinceID = nil
        liveFilter.sinceTime = nil
        let live = liveFilter
        let host = self.host
        return .live(LiveJournal(feed: control.feed, reader: reader, initial: initial) { batch in
            var batch = batch
            batch.entries.removeAll { !live.matches($0) }
            return AdminAPI.events(batch, catalog: host.currentCatalog)
        })
    }

    /// A batch as server-sent events.
    static func events(_ batch: JournalFeed.Batch, catalog: StubCatalog) -> [UInt8] {
        var out = ""
        if batch.dropped.total > 0 {
            let byClass = JSONValue.object(batch.dropped.byClass.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })
            out += "event: dropped\ndata: {\"dropped\":\(batch.dropped.total),\"byStatus\":\(byClass.serialized()),"
            out += "\"time\":\"\(ISO8601.format(Date()))\"}\n\n"
        }
        for entry in batch.entries {
            out += "id: \(entry.id)\nevent: request\ndata: "
            out += entryJSON(entry, catalog: catalog).serialized()
            out += "\n\n"
        }
        if batch.changed { out += "event: change\ndata: {}\n\n" }
        return Array(out.utf8)
    }
}
