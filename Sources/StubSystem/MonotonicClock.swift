#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on CLOCK_MONOTONIC, the clock delays and deadlines are measured on.
package enum MonotonicClock {
    package static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Sleeps the calling thread; only for bounded shutdown waits, never on the request path.
package func usleepMs(_ ms: Int) {
    usleep(useconds_t(ms * 1000))
}
