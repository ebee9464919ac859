import CHiredis
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A call's whole time and a reply's whole size: what keeps a store that trickles, stalls or
/// floods from holding a thread (start, stop, a request) for longer than the call's budget.
extension RedisConnection {
    /// When a call that starts now must end.
    func callDeadline() -> UInt64 {
        MonotonicClock.now() + UInt64(budgetMs) * 1_000_000
    }

    /// Waits until `fd` is ready for `event`, in slices of at most 100 ms so that a cutoff set
    /// meanwhile (the server stopping) is seen; throws once the deadline or the cutoff passed.
    func waitFor(_ event: Int32, on fd: Int32, until deadline: UInt64) throws(StoreError) {
        while true {
            let end = cutoff?.capping(deadline) ?? deadline
            let now = MonotonicClock.now()
            guard now < end else {
                throw StoreError(description: end < deadline ? cutoff?.reason ?? "cut off"
                                                             : "no whole reply within \(budgetMs) ms (the store is slow or stalled)")
            }
            var ready = pollfd(fd: fd, events: Int16(event), revents: 0)
            let slice = Int32(min(100, (end - now + 999_999) / 1_000_000))
            let result = poll(&ready, 1, slice)
            if result > 0 { return }
            if result < 0 && errno != EINTR { throw StoreError(description: "cannot wait for the store: \(String(cString: strerror(errno)))") }
        }
    }

    /// Reads what the plain socket has (poll said readable) into hiredis's reader; the count.
    func readOnce(_ context: UnsafeMutablePointer<redisContext>) throws(StoreError) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
        defer { buffer.deallocate() }
        let got = read(context.pointee.fd, buffer.baseAddress, buffer.count)
        if got < 0 && (errno == EINTR || errno == EAGAIN) { return 0 }
        guard got > 0 else {
            throw StoreError(description: got == 0 ? "the store closed the connection" : "cannot read from the store: \(String(cString: strerror(errno)))")
        }
        try feed(context.pointee.reader, UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        return got
    }

    /// Hands bytes read to hiredis's reader, once `RESPScanner` found nothing in them that would
    /// make hiredis allocate more than a reply may hold.
    func feed(_ reader: UnsafeMutablePointer<redisReader>, _ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        try scanner.scan(bytes)
        guard redisReaderFeed(reader, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) == REDIS_OK else {
            throw StoreError(description: "the store's reply could not be read")
        }
    }

    /// Throws once one reply has taken more than `maxReplyBytes`.
    static func check(_ received: Int) throws(StoreError) {
        guard received <= maxReplyBytes else {
            throw StoreError(description: "a reply of more than \(maxReplyBytes >> 20) MiB; not read further")
        }
    }
}
