/// One open `GET /__stubd/journal/stream`: its reader in the control's feed, the entries it
/// starts with, and how a batch becomes server-sent events. The request's lifecycle pulls it
/// (`LiveJournalCursor`) and closes the reader when the response ends. A class, so the plan's
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
    /// The first bytes: the reconnect delay and the `hello` event.
    package let prelude: [UInt8]
    /// Server-sent event bytes for a batch (entries already filtered to ones not sent).
    package let render: @Sendable (JournalFeed.Batch) -> [UInt8]

    package init(feed: JournalFeed, reader: Int, initial: [RequestJournal.Entry], initialDropped: JournalFeed.Dropped, prelude: [UInt8],
                 render: @escaping @Sendable (JournalFeed.Batch) -> [UInt8]) {
        self.feed = feed
        self.reader = reader
        self.initial = initial
        self.initialDropped = initialDropped
        self.prelude = prelude
        self.render = render
    }

    /// The response head of a stream of server-sent events that no proxy should buffer.
    package static let headers = [
        HTTPHeader("Content-Type", "text/event-stream; charset=utf-8"), HTTPHeader("Cache-Control", "no-store"),
        HTTPHeader("X-Accel-Buffering", "no"),
    ]
}
