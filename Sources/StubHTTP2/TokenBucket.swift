/// A rate bound: `burst` events at once, then `perSecond` more each second. A client's frames are
/// counted in one (control frames, resets); when it runs dry the client is sending more than any
/// honest client does, and its connection ends.
struct TokenBucket {
    private let burst: UInt64
    private let perSecond: UInt64
    /// Tokens, in billionths, so a refill needs no division.
    private var tokens: UInt64
    private var last: UInt64?

    init(burst: Int, perSecond: Int) {
        self.burst = UInt64(max(1, burst)) * 1_000_000_000
        self.perSecond = UInt64(max(0, perSecond))
        tokens = self.burst
    }

    /// Takes one token at `now` (monotonic ns); false when none is left.
    mutating func take(now: UInt64) -> Bool {
        if let last, now > last {
            let (earned, overflow) = (now - last).multipliedReportingOverflow(by: perSecond)
            tokens = overflow ? burst : min(burst, tokens + earned)
        }
        last = now
        guard tokens >= 1_000_000_000 else { return false }
        tokens -= 1_000_000_000
        return true
    }
}
