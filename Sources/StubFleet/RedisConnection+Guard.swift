import StubSystem

/// Changes that a call which gave up leaves no trace of.
///
/// A call that gives up (no whole reply within its time) cannot take back what it sent: the
/// command may sit in the socket of a store that is paused, or on a path that stalled, and run
/// when the store reads it, after the caller was answered 503 and perhaps after a retry with
/// another value. Dropping the connection does not help (the store still reads what arrived),
/// nor does not sending once time is short (the bytes of a store paused mid-call are already
/// there). So the change is made conditional: it runs as one script that reads the store's clock
/// first and changes nothing once that is past the change's deadline.
///
/// The deadline is in the store's own time, from a `TIME` read at the start of the same call, so
/// the two clocks need not agree, only run at the same rate for the call's few hundred
/// milliseconds. `TIME` was read at or before its reply arrived, so the store's clock at any
/// later local moment is at least that reading plus the local time since then. With the deadline
/// set `replyMargin` before the call gives up: a change that ran in time ran that long before
/// the call gives up, time for its reply to come back; a change that ran too late says so, and
/// one still unread when the call gives up will find the store's clock past its deadline.
///
/// Chosen over a version or fencing token: a token needs a second message to revoke it, which
/// would wait in the same stalled socket behind the change it is meant to stop. What is left: a
/// store that stalls for longer than the margin in the instant after it ran the change and before
/// it sent the reply (the change stands though the caller was answered 503), and a store whose
/// clock is stepped back during the stall by more than the change was late (it then runs).
extension RedisConnection {
    /// Runs `commands` in order, atomically, unless the store reads them too late (see above):
    /// their replies, or a throw saying why nothing was changed. The whole call (the clock read,
    /// the change, its reply) ends within the connection's budget.
    func guarded(_ commands: [[String]]) throws(StoreError) -> [RedisReply] {
        // (A cutoff set later, by a stop, may end the wait sooner: the server is going then.)
        let giveUp = cutoff?.capping(callDeadline()) ?? callDeadline()
        try append(["TIME"])
        let clock = try replies(1, until: giveUp)[0].elements.compactMap(\.int)
        let read = MonotonicClock.now()
        guard clock.count == 2 else { throw StoreError(description: "the store did not tell its time (TIME)") }
        // How long the change may still run: too little, and it is not sent at all.
        let marginNs = UInt64(budgetMs) * 1_000_000 / 3
        let windowNs = Int64(bitPattern: giveUp &- marginNs &- read)
        guard windowNs >= 10_000_000 else { throw StoreError(description: "no time left in the call to make the change") }
        let deadline = clock[0] * 1_000_000 + clock[1] + Int(windowNs / 1000)
        var arguments = ["EVAL", RedisConnection.guardScript, "0", String(deadline)]
        for command in commands { arguments += [String(command.count)] + command }
        try append(arguments)
        let reply = try replies(1, until: giveUp)[0]
        switch reply {
        case .array(let replies) where replies.count == commands.count: return replies
        case .error(let why) where why.hasPrefix("STUBDLATE"):
            throw StoreError(description: "the store read a change only after its deadline and did not make it (the store is slow or stalled)")
        default: throw StoreError(description: "the store refused a change: \(reply)")
        }
    }

    /// Reads the replies of `count` queued commands, in order, until `deadline` (monotonic ns).
    func replies(_ count: Int, until deadline: UInt64) throws(StoreError) -> [RedisReply] {
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count { replies.append(try nextReply(until: deadline)) }
        return replies
    }

    /// ARGV: the deadline in the store's microseconds, then each command as its argument count
    /// and its arguments. Nothing is changed, and STUBDLATE returned, once `TIME` is past the
    /// deadline. (Keys are named in ARGV, not KEYS: the fleet uses one store, not a cluster.)
    static let guardScript = """
        local now = redis.call('TIME')
        if tonumber(now[1]) * 1000000 + tonumber(now[2]) >= tonumber(ARGV[1]) then
          return redis.error_reply('STUBDLATE the change arrived after its deadline and was not made')
        end
        local replies, i = {}, 2
        while i <= #ARGV do
          local n = tonumber(ARGV[i])
          replies[#replies + 1] = redis.call(unpack(ARGV, i + 1, i + n))
          i = i + n + 1
        end
        return replies
        """
}
