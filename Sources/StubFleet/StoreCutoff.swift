import StubSystem

/// A time past which no store call of one replica may go on (monotonic nanoseconds, 0 for none),
/// shared by all its connections. Start sets it so that a store that answers slowly cannot keep
/// the stub files from being served; stop sets it so that SIGTERM is not held up by a call.
final class StoreCutoff: Sendable {
    private let ns = AtomicWord<UInt64>(0)
    private let why = Locked("")

    /// No call goes on past `milliseconds` from now; a call cut off says `reason`.
    func cut(inMilliseconds milliseconds: Int, reason: String) {
        why.withLock { $0 = reason }
        ns.store(MonotonicClock.now() + UInt64(milliseconds) * 1_000_000, ordering: .releasing)
    }

    /// Calls take their own deadlines again.
    func lift() { ns.store(0, ordering: .releasing) }

    /// Milliseconds left of `limit` before the cutoff (`limit` when none is set; 0 once passed).
    func remainingMilliseconds(within limit: Int) -> Int {
        let cutoff = ns.load(ordering: .acquiring)
        guard cutoff != 0 else { return limit }
        let now = MonotonicClock.now()
        return cutoff <= now ? 0 : min(limit, Int((cutoff - now) / 1_000_000))
    }

    /// What a call cut off says.
    var reason: String { why.withLock { $0 } }

    /// `deadline`, or the cutoff when it comes first.
    func capping(_ deadline: UInt64) -> UInt64 {
        let cutoff = ns.load(ordering: .acquiring)
        return cutoff == 0 ? deadline : min(deadline, cutoff)
    }
}
