/// Where a streamed body is: the next event, how far into it, and how it is ending. Pure: the
/// lifecycle hands it the time and a buffer.
package struct StreamCursor {
    let plan: PlannedStream
    let bytesPerSecond: Int?
    let holdUntilNs: UInt64
    private(set) var startNs: UInt64 = 0
    /// Events sent whole so far.
    private(set) var next = 0
    private var offsetInEvent = 0
    private var sentBytes = 0
    private var cutDueNs: UInt64?
    /// True once the stream reached its planned end (the last event, or its cut), as opposed to
    /// the client leaving first.
    private(set) var ended = false
    /// True once `cutAfter` reset the connection.
    private(set) var cut = false

    init(plan: PlannedStream, bytesPerSecond: Int?, holdCapNs: UInt64) {
        self.plan = plan
        self.bytesPerSecond = bytesPerSecond
        holdUntilNs = holdCapNs
    }

    /// Copies what is due into `buffer`, or says when it will be.
    mutating func pull(into buffer: PullBuffer, now: UInt64) -> PullResult {
        if startNs == 0 { startNs = now }
        if let cutAfter = plan.cutAfter, next >= cutAfter, offsetInEvent == 0 { return cutConnection(now: now) }
        guard next < plan.events.count else {
            if plan.keepOpen, now < startNs &+ holdUntilNs { return .wait(until: startNs &+ holdUntilNs) }
            ended = true
            return .end
        }
        var due = startNs + UInt64(plan.dueMs[next]) * 1_000_000
        if let rate = bytesPerSecond { due = max(due, startNs + UInt64(sentBytes) * 1_000_000_000 / UInt64(rate)) }
        if due > now + 1_000_000 { return .wait(until: due) }
        let event = plan.events[next].bytes
        var count = min(buffer.count, event.count - offsetInEvent)
        if let rate = bytesPerSecond { count = min(count, max(1, min(1024, rate / 10))) }
        buffer.copy(event, from: offsetInEvent, count: count)
        offsetInEvent += count
        sentBytes += count
        if offsetInEvent == event.count {
            next += 1
            offsetInEvent = 0
        }
        return .copied(count)
    }

    /// After `cutAfter` events: wait a moment so the transport has written them, then reset.
    private mutating func cutConnection(now: UInt64) -> PullResult {
        guard let due = cutDueNs else {
            cutDueNs = now + 20_000_000
            return .wait(until: now + 20_000_000)
        }
        if due > now + 1_000_000 { return .wait(until: due) }
        ended = true
        cut = true
        return .reset
    }
}

/// A body sent at a fixed rate (a slow mobile link, like OkHttp's `throttleBody`): about ten
/// pieces a second, at most 1 KiB each, so the pace is smooth at any rate.
package struct ThrottleCursor {
    let body: [UInt8]
    let bytesPerSecond: Int
    let chunk: Int
    private var startNs: UInt64 = 0

    init(body: [UInt8], bytesPerSecond: Int) {
        self.body = body
        self.bytesPerSecond = max(1, bytesPerSecond)
        chunk = max(1, min(1024, bytesPerSecond / 10))
    }

    /// Copies the piece at `offset` when it is due.
    mutating func pull(at offset: Int, into buffer: PullBuffer, now: UInt64) -> PullResult {
        guard offset < body.count else { return .end }
        if startNs == 0 { startNs = now }
        let due = startNs + UInt64(offset) * 1_000_000_000 / UInt64(bytesPerSecond)
        if due > now + 1_000_000 { return .wait(until: due) }
        let count = min(chunk, buffer.count, body.count - offset)
        buffer.copy(body, from: offset, count: count)
        return .copied(count)
    }
}

/// A `slow-headers` fault: the response's head written a few bytes at a time, evenly over the
/// spread, then the body, then the connection closed.
package struct SlowHeadersCursor {
    let head: [UInt8]
    let body: [UInt8]
    let pieces: Int
    let gapNs: UInt64
    private(set) var sent = 0

    /// About ten pieces a second over `spreadMs`, at least two and at most one per byte.
    init(head: [UInt8], body: [UInt8], spreadMs: Int) {
        self.head = head
        self.body = body
        pieces = max(2, min(head.count, spreadMs / 100))
        gapNs = UInt64(max(0, spreadMs)) * 1_000_000 / UInt64(pieces)
    }

    /// The next piece to write and what follows it: another wait, or (with the body) the close.
    mutating func next(now: UInt64) -> LifecycleAction {
        let size = (head.count + pieces - 1) / pieces
        let piece = Array(head[sent..<min(head.count, sent + size)])
        sent += piece.count
        if sent >= head.count { return .writeRaw(piece + body, then: .close) }
        return .writeRaw(piece, then: .suspend(until: now + gapNs))
    }
}
