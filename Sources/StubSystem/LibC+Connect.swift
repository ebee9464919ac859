#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibC {
    /// Connects `fd`, a new TCP socket, to `address` by `deadline` (monotonic ns), and leaves it
    /// non-blocking: a non-blocking connect, a poll for its outcome, and SO_ERROR for the
    /// answer. Not SO_SNDTIMEO, which Darwin's connect ignores (an address that drops the SYN
    /// holds it about 75 s there). Throws ETIMEDOUT (as `connect`) once the deadline passed.
    package static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t,
                                untilNs deadline: UInt64) throws(SystemCallError) {
        try setNonBlocking(fd)
        #if canImport(Glibc)
        let started = Glibc.connect(fd, address, length)
        #else
        let started = Darwin.connect(fd, address, length)
        #endif
        if started == 0 { return }
        // Interrupted, the connection goes on being made in the background (POSIX), as EINPROGRESS.
        guard errno == EINPROGRESS || errno == EINTR else { throw SystemCallError(call: "connect", errno: errno) }
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { throw SystemCallError(call: "connect", errno: ETIMEDOUT) }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            // The wait is worked out again after an interruption, so that it still ends at the deadline.
            guard try SystemCall.run("poll", { poll(&ready, 1, millisecondsLeft(until: deadline)) }) > 0 else { continue }
            var code: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            try SystemCall.run("getsockopt SO_ERROR") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) }
            guard code == 0 else { throw SystemCallError(call: "connect", errno: code) }
            return
        }
    }

    /// Milliseconds from now to `deadline` (monotonic ns), rounded up; 0 once it passed.
    private static func millisecondsLeft(until deadline: UInt64) -> Int32 {
        let now = MonotonicClock.now()
        return now < deadline ? Int32(clamping: (deadline - now + 999_999) / 1_000_000) : 0
    }
}
