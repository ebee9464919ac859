// Public only so the two hints can be inlined into their callers: a call costs more than the
// one instruction it wraps, on paths that ask for a dozen lines per request.
public import CSystem

/// Cache hints for memory the caller will touch soon and has not touched for long (the oldest
/// entries of a ring, a route not asked for lately): asking early, or for several places at
/// once, lets the waits for memory overlap other work and each other.
public enum Prefetch {
    /// Asks for the cache line at `address`, to be written soon. A hint: it never faults.
    @inlinable @inline(__always)
    public static func forWriting(_ address: UnsafeRawPointer) {
        CSystem_prefetch_for_writing(address)
    }

    /// Asks for the cache line at `address`, to be read soon. A hint: it never faults.
    @inlinable @inline(__always)
    public static func forReading(_ address: UnsafeRawPointer) {
        CSystem_prefetch_for_reading(address)
    }
}
