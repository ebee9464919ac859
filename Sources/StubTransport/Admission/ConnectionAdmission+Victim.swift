import StubCore

extension ConnectionAdmission {
    /// The connection to close so a new one can be admitted at the limit, or nil when every
    /// connection is being answered (those are never cut: a delayed or held response is the
    /// stub doing its job). Kept-alive idle connections go first, the longest idle; then the one
    /// waiting longest for a complete head; then the body arriving slowest.
    package static func victim<Connections: Sequence<Connection>>(among open: Connections, now: UInt64) -> Connection? {
        var idle: (Connection, UInt64)?
        var head: (Connection, UInt64)?
        var body: (Connection, Double)?
        for connection in open {
            let since = connection.since.load(ordering: .relaxed)
            switch connection.currentPhase {
            case .idle:
                if idle.map({ since < $0.1 }) ?? true { idle = (connection, since) }
            case .head:
                if head.map({ since < $0.1 }) ?? true { head = (connection, since) }
            case .body:
                let seconds = Double(now &- since) / 1e9
                let rate = Double(connection.bodyBytes.load(ordering: .relaxed)) / max(seconds, 0.001)
                if body.map({ rate < $0.1 }) ?? true { body = (connection, rate) }
            case .answering, .evicted:
                continue
            }
        }
        return idle?.0 ?? head?.0 ?? body?.0
    }
}
