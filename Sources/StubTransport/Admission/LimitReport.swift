import StubCore
import StubSystem

/// Logs that a connection limit was hit without flooding the log: one line per kind at most every
/// `intervalNs`, carrying how many times it happened since the last line.
package final class LimitReport: Sendable {
    /// The limits that are logged separately.
    package enum Kind: Int, CaseIterable {
        case full, perClient, late, idle, slowBody, evicted
    }

    package static let intervalNs: UInt64 = 10_000_000_000

    private struct Tally {
        package var lastLogged = [UInt64](repeating: 0, count: Kind.allCases.count)
        package var unreported = [Int](repeating: 0, count: Kind.allCases.count)
        package var total = [Int](repeating: 0, count: Kind.allCases.count)
    }

    private let tally = Locked(Tally())
    private let log: @Sendable (String) -> Void

    package init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// The name health gives each kind.
    package static func name(_ kind: Kind) -> String {
        switch kind {
        case .full: return "connectionLimit"
        case .perClient: return "perClientLimit"
        case .late: return "headerTimeout"
        case .idle: return "idleTimeout"
        case .slowBody: return "slowBody"
        case .evicted: return "evicted"
        }
    }

    /// How many times each limit was hit since start, every kind named.
    package var totals: [(name: String, count: Int)] {
        let counts = tally.withLock { $0.total }
        return Kind.allCases.map { (LimitReport.name($0), counts[$0.rawValue]) }
    }

    /// Counts one event of `kind`; logs `line` when none was logged in the last interval.
    package func note(_ kind: Kind, now: UInt64, _ line: @autoclosure () -> String) {
        let k = kind.rawValue
        let times = tally.withLock { t -> Int? in
            t.unreported[k] += 1
            t.total[k] += 1
            guard t.lastLogged[k] == 0 || now &- t.lastLogged[k] >= LimitReport.intervalNs else { return nil }
            t.lastLogged[k] = now
            defer { t.unreported[k] = 0 }
            return t.unreported[k]
        }
        guard let times else { return }
        log(times > 1 ? "\(line()) (\(times) times since the last report)" : line())
    }

    /// Counts `times` events of `kind` for health, with no log line (routine events).
    package func count(_ kind: Kind, times: Int) {
        tally.withLock { $0.total[kind.rawValue] += times }
    }
}
