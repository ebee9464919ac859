/// A stream as one request gets it: the events left after `Last-Event-ID`, each one's due time
/// (drawn once, in ms after the first byte), and whether to cut or keep the connection open.
package struct PlannedStream: Sendable {
    /// The events to send.
    package var events: [EventStream.Event]
    /// Milliseconds after the first byte at which each event is due.
    package var dueMs: [Int]
    /// Keep the response open after the last event.
    package var keepOpen: Bool
    /// Reset the connection after this many events.
    package var cutAfter: Int?

    /// Plans `stream` for a request that last saw `lastEventID`.
    package init(_ stream: EventStream, lastEventID: String?, cutAfter: Int?) {
        events = Array(stream.events(after: lastEventID))
        var at = 0
        dueMs = events.map { event in
            at += event.after?.sample() ?? 0
            return at
        }
        keepOpen = stream.keepOpen
        self.cutAfter = cutAfter
    }
}
