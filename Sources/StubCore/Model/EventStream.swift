/// A response body sent in pieces over time: server-sent events (`<status>.events.json`) or the
/// lines of an NDJSON file (`"stream": {"every": …}`). Each event's bytes are framed at load time;
/// per request only the waits are drawn.
public struct EventStream: Sendable {
    /// How the events are framed on the wire.
    public enum Format: String, Sendable {
        /// `text/event-stream`: `id:`, `event:`, `retry:` and `data:` lines, a blank line after each.
        case serverSentEvents
        /// `application/x-ndjson`: one JSON document per line.
        case ndjson
    }

    /// One event.
    public struct Event: Sendable {
        /// The bytes sent for it, framing included.
        public let bytes: [UInt8]
        /// Its `id`, which `Last-Event-ID` resumes after.
        public let id: String?
        /// The wait before it is sent, counted from the event before (or the first byte).
        public let after: DelaySpec?

        /// An event.
        public init(bytes: [UInt8], id: String?, after: DelaySpec?) {
            self.bytes = bytes
            self.id = id
            self.after = after
        }
    }

    /// How the events are framed.
    public let format: Format
    /// The events in order.
    public let events: [Event]
    /// Keep the response open after the last event (until the client leaves or the hold cap).
    public let keepOpen: Bool

    /// A stream.
    public init(format: Format, events: [Event], keepOpen: Bool) {
        self.format = format
        self.events = events
        self.keepOpen = keepOpen
    }

    /// The Content-Type the stream is served with.
    public var contentType: String {
        format == .serverSentEvents ? "text/event-stream; charset=utf-8" : "application/x-ndjson"
    }

    /// The events after the one whose id is `lastEventID` (all of them when no event has it).
    package func events(after lastEventID: String?) -> ArraySlice<Event> {
        guard let lastEventID, let index = events.lastIndex(where: { $0.id == lastEventID }) else { return events[...] }
        return events[(index + 1)...]
    }

    /// The SSE framing of one event: `id`, `event`, `retry`, then one `data:` line per line of data.
    package static func frame(data: String, event: String?, id: String?, retry: Int?) -> [UInt8] {
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let event { text += "event: \(event)\n" }
        if let retry { text += "retry: \(retry)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }
}
