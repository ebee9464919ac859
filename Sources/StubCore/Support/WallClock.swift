#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock dates for times on the monotonic clock, so a request's arrival (which the transport
/// already timed) is dated without a wall-clock read per request. The distance between the two
/// clocks is read again whenever 100 ms of monotonic time have passed since the last read: a
/// change of the system clock shows in the dates within that.
package enum WallClock {
    /// Wall-clock ns minus monotonic ns at the last read.
    private static let offsetNs = AtomicWord<Int64>(0)
    /// The monotonic time of the last read (0: never read).
    private static let readAtNs = AtomicWord<UInt64>(0)
    /// How often the distance is read again.
    static let refreshNs: UInt64 = 100_000_000

    /// The wall-clock date of the monotonic time `ns`.
    package static func date(atMonotonic ns: UInt64) -> Date {
        let readAt = readAtNs.load(ordering: .relaxed)
        var offset = offsetNs.load(ordering: .relaxed)
        // Two threads may both read again: each stores a true distance.
        if readAt == 0 || (ns > readAt && ns - readAt > refreshNs) { offset = readOffset() }
        let wallNs = Int64(bitPattern: ns) &+ offset
        return Date(timeIntervalSince1970: Double(wallNs) / 1_000_000_000)
    }

    /// Now, in seconds since 1970 (the `{{now}}` template helpers).
    package static func unixSeconds() -> Double {
        date(atMonotonic: MonotonicClock.now()).timeIntervalSince1970
    }

    /// Reads both clocks and keeps their distance.
    private static func readOffset() -> Int64 {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let monotonic = MonotonicClock.now()
        let offset = (Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)) &- Int64(bitPattern: monotonic)
        offsetNs.store(offset, ordering: .relaxed)
        readAtNs.store(monotonic, ordering: .relaxed)
        return offset
    }
}
