import CHiredis
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to Valkey or Redis over hiredis's blocking API: the only owner of a
/// `redisContext`. Not shared between threads: each user (the worker, the subscriber, the lock
/// around calls from request threads) has its own.
final class RedisConnection: @unchecked Sendable {
    // @unchecked: a connection is used by one thread at a time, either under the lock that holds
    // it (the call connection) or by the one thread that made it (the worker, the subscriber).
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `url` (then `AUTH` and `SELECT` as it says); every read and write waits at most `timeoutMs`.
    init(_ url: StateStoreURL, timeoutMs: Int) throws(StoreError) {
        let wait = timeval(tv_sec: timeoutMs / 1000, tv_usec: Int((timeoutMs % 1000) * 1000))
        guard let made = redisConnectWithTimeout(url.host, Int32(url.port), wait) else {
            throw StoreError(description: "cannot reach \(url.redacted): out of memory")
        }
        // From here a throw runs deinit, which frees the context: it must not be freed here too.
        context = made
        guard made.pointee.err == 0 else {
            let why = RedisConnection.errorText(made)
            throw StoreError(description: "cannot reach \(url.redacted): \(why)")
        }
        _ = redisSetTimeout(made, wait)
        _ = redisEnableKeepAlive(made)
        if let password = url.password {
            let reply = try command(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            if case .error(let why) = reply { throw StoreError(description: "\(url.redacted) refused the password: \(why)") }
        }
        if url.database != 0, case .error(let why) = try command(["SELECT", String(url.database)]) {
            throw StoreError(description: "\(url.redacted) has no database \(url.database): \(why)")
        }
    }

    deinit { redisFree(context) }

    /// The socket, for a subscriber waiting on it with poll.
    var descriptor: Int32 { context.pointee.fd }

    /// Sends one command and waits for its reply. A refused command is `.error`; a lost or silent
    /// store throws, and the connection is of no further use.
    func command(_ arguments: [String]) throws(StoreError) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// Sends commands at once and reads their replies in order (one round trip).
    func pipeline(_ commands: [[String]]) throws(StoreError) -> [RedisReply] {
        for arguments in commands { try append(arguments) }
        return try replies(commands.count)
    }

    /// Reads the replies of `count` queued commands, in order.
    func replies(_ count: Int) throws(StoreError) -> [RedisReply] {
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count { replies.append(try nextReply()) }
        return replies
    }

    /// Queues one command in hiredis's output buffer (sent by the next read).
    func append(_ arguments: [String]) throws(StoreError) {
        try append(bytes: arguments.map { Array($0.utf8) })
    }

    /// Queues one command whose arguments are bytes already (a journal entry's JSON).
    func append(bytes: [[UInt8]]) throws(StoreError) {
        // One buffer holds every argument; argv points into it.
        let joined = bytes.flatMap { $0 }
        let lengths = bytes.map { $0.count }
        let status = joined.withUnsafeBufferPointer { buffer -> Int32 in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var argv: [UnsafePointer<CChar>?] = []
            for length in lengths {
                argv.append(base + offset)
                offset += length
            }
            return redisAppendCommandArgv(context, Int32(bytes.count), &argv, lengths)
        }
        guard status == REDIS_OK else { throw StoreError(description: RedisConnection.errorText(context)) }
    }

    /// Waits for the next reply (sending what is queued first).
    func nextReply() throws(StoreError) -> RedisReply {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw StoreError(description: RedisConnection.errorText(context)) }
        defer { freeReplyObject(raw) }
        return RedisConnection.convert(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// A reply already read into the buffer, without waiting; nil when none is complete yet.
    func bufferedReply() throws(StoreError) -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw StoreError(description: RedisConnection.errorText(context)) }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return RedisConnection.convert(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Reads what the socket has into the buffer (after poll said it is readable); throws when
    /// the store closed the connection.
    func readAvailable() throws(StoreError) {
        guard redisBufferRead(context) == REDIS_OK else { throw StoreError(description: RedisConnection.errorText(context)) }
    }

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let r = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = r.str else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: r.len))
        }
        switch r.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int(r.integer))
        case REDIS_REPLY_ARRAY:
            return .array((0..<r.elements).compactMap { r.element[$0].map(convert) })
        default: return .null
        }
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if !text.isEmpty { return text }
        return context.pointee.err == REDIS_ERR_EOF ? "the store closed the connection" : "error \(context.pointee.err)"
    }
}
