#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One open `GET /__stubd/journal/stream`: its reader in the control's feed, the entries it
/// starts with, and the stream's wire format (server-sent events). The request's lifecycle pulls
/// it (`LiveJournalCursor`) and closes the reader when the response ends. A class, so the plan's
/// response and the lifecycle's phase, which every request copies, stay one word wide for it.
package final class LiveJournal: Sendable {
    /// The feed the reader is open in.
    package let feed: JournalFeed
    /// The reader's id in `feed`.
    package let reader: Int
    /// Entries already in the journal that the reader asked for (`since`), sent first.
    package let initial: [RequestJournal.Entry]
    /// Entries asked for with `since` beyond the 1,000 sent, counted.
    package let initialDropped: JournalFeed.Dropped
    /// The journal's last id when the stream opened, named by the `hello` event.
    package let lastID: Int

    package init(feed: JournalFeed, reader: Int, initial: [RequestJournal.Entry], initialDropped: JournalFeed.Dropped, lastID: Int) {
        self.feed = feed
        self.reader = reader
        self.initial = initial
        self.initialDropped = initialDropped
        self.lastID = lastID
    }

    /// The response head of a stream of server-sent events that no proxy should buffer.
    package static let headers = [
        HTTPHeader("Content-Type", "text/event-stream; charset=utf-8"), HTTPHeader("Cache-Control", "no-store"),
        HTTPHeader("X-Accel-Buffering", "no"),
    ]

    /// The first bytes: the reconnect delay, and the `hello` event naming which journal this is (a
    /// client that saw larger ids was talking to an earlier run of the server and starts again).
    var prelude: [UInt8] {
        Array("retry: 2000\n: stubd journal stream\n\nevent: hello\ndata: {\"lastID\":\(lastID)}\n\n".utf8)
    }

    /// A batch (entries already filtered to ones not sent) as server-sent events.
    static func events(_ batch: JournalFeed.Batch) -> [UInt8] {
        var out: [UInt8] = []
        if batch.dropped.total > 0 {
            let byClass = JSONValue.object(batch.dropped.byClass.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })
            out += "event: dropped\ndata: {\"dropped\":\(batch.dropped.total),\"byStatus\":\(byClass.serialized()),".utf8
            out += "\"time\":\"\(ISO8601.format(Date()))\"}\n\n".utf8
        }
        for entry in batch.entries {
            out += "id: \(entry.id)\nevent: request\ndata: ".utf8
            JournalEntryWriter.write(entry.record, id: entry.id, into: &out)
            out += "\n\n".utf8
        }
        if batch.changed { out += "event: change\ndata: {}\n\n".utf8 }
        return out
    }
}
