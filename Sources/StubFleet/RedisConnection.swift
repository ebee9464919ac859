import CHiredis
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to Valkey or Redis: hiredis's command formatter and reply reader over a
/// non-blocking socket (plain TCP, connected by hiredis) or over `StoreTLSChannel` (`rediss://`).
/// The bytes go out through send(2) here, never hiredis's write(2): that would raise SIGPIPE in
/// a host process that had not ignored it (an in-process `StubServer`) once the store has gone.
/// The only owner of its `redisContext` or `redisReader`. Not shared between threads: each user
/// (the worker, the subscriber, the lock around calls from request threads) has its own.
final class RedisConnection: @unchecked Sendable {
    // @unchecked: a connection is used by one thread at a time, either under the lock that holds
    // it (the call connection) or by the one thread that made it (the worker, the subscriber).
    private enum Transport {
        case plain(UnsafeMutablePointer<redisContext>)
        case tls(StoreTLSChannel, UnsafeMutablePointer<redisReader>)
    }

    private let transport: Transport
    /// Formatted commands not sent yet.
    private var outbox: [UInt8] = []
    /// Every byte read passes it before hiredis sees it (see `feed`).
    var scanner = RESPScanner(maxReplyBytes: RedisConnection.maxReplyBytes)
    /// How long one call (a command or a pipeline, every reply whole) may take in all.
    let budgetMs: Int
    let cutoff: StoreCutoff?

    /// The most bytes read for one reply: a store that sends more is cut off, not read whole into
    /// memory. A journal of the default 1,000 entries is about 10 MB.
    static let maxReplyBytes = 64 << 20

    /// Connects to `url` (then `AUTH` and `SELECT` as it says). Each call, and the connect, ends
    /// within `timeoutMs` in all, whatever the store sends, or by `cutoff` when that comes first.
    init(_ url: StateStoreURL, timeoutMs: Int, cutoff: StoreCutoff? = nil) throws(StoreError) {
        budgetMs = timeoutMs
        self.cutoff = cutoff
        let connectMs = cutoff?.remainingMilliseconds(within: timeoutMs) ?? timeoutMs
        guard connectMs > 0 else { throw StoreError(description: cutoff?.reason ?? "cut off") }
        if url.tls {
            let channel = try StoreTLSChannel(host: url.host, port: url.port, timeoutMs: connectMs, authorities: url.authorities)
            guard let reader = redisReaderCreate() else { throw StoreError(description: "hiredis could not make a reply reader") }
            transport = .tls(channel, reader)
        } else {
            let wait = LibC.timeval(milliseconds: connectMs)
            guard let made = redisConnectWithTimeout(url.host, Int32(url.port), wait) else {
                throw StoreError(description: "cannot reach \(url.redacted): out of memory")
            }
            // From here a throw runs deinit, which frees the context: it must not be freed here too.
            transport = .plain(made)
            guard made.pointee.err == 0 else {
                throw StoreError(description: "cannot reach \(url.redacted): \(RedisConnection.errorText(made))")
            }
            // Non-blocking, so that no send outlasts the call's deadline (see `waitFor`).
            do { try LibC.setNonBlocking(made.pointee.fd) } catch {
                throw StoreError(description: "cannot use the connection to \(url.redacted): \(error)")
            }
            // Keepalive only finds a vanished store sooner; a socket refusing it works, and calls have deadlines.
            _ = redisEnableKeepAlive(made)
        }
        if let password = url.password {
            let reply = try command(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            if case .error(let why) = reply { throw StoreError(description: "\(url.redacted) refused the password: \(why)") }
        }
        if url.database != 0, case .error(let why) = try command(["SELECT", String(url.database)]) {
            throw StoreError(description: "\(url.redacted) has no database \(url.database): \(why)")
        }
    }

    deinit {
        switch transport {
        case .plain(let context): redisFree(context)
        case .tls(_, let reader): redisReaderFree(reader)
        }
    }

    /// The socket, for a subscriber waiting on it with poll.
    var descriptor: Int32 {
        switch transport {
        case .plain(let context): return context.pointee.fd
        case .tls(let channel, _): return channel.descriptor
        }
    }

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

    /// Reads the replies of `count` queued commands, in order, all within one call's time.
    func replies(_ count: Int) throws(StoreError) -> [RedisReply] {
        try replies(count, until: callDeadline())
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
        var formatted: [UInt8]?
        joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var argv: [UnsafePointer<CChar>?] = []
            for length in lengths {
                argv.append(base + offset)
                offset += length
            }
            var command: UnsafeMutablePointer<CChar>?
            let length = redisFormatCommandArgv(&command, Int32(bytes.count), &argv, lengths)
            guard length >= 0, let command else { return }
            formatted = Array(UnsafeRawBufferPointer(start: command, count: Int(length)))
            redisFreeCommand(command)
        }
        guard let formatted else { throw StoreError(description: "the command could not be formatted (out of memory)") }
        outbox += formatted
    }

    /// Waits for the next reply (sending what is queued first), within one call's time.
    func nextReply() throws(StoreError) -> RedisReply {
        try nextReply(until: callDeadline())
    }

    /// Waits for the next reply until `deadline` (monotonic ns): every byte may come late, but
    /// the reply as a whole may not (a store trickling a byte at a time would reset any timeout
    /// that counts from the last byte). A reply over `maxReplyBytes` is not read further.
    func nextReply(until deadline: UInt64) throws(StoreError) -> RedisReply {
        var received = 0
        switch transport {
        case .plain(let context):
            try sendOutbox(context.pointee.fd, until: deadline)
            while true {
                var raw: UnsafeMutableRawPointer?
                guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw StoreError(description: RedisConnection.errorText(context)) }
                if let raw {
                    defer { freeReplyObject(raw) }
                    return try RedisConnection.convert(raw.assumingMemoryBound(to: redisReply.self))
                }
                try waitFor(POLLIN, on: context.pointee.fd, until: deadline)
                received += try readOnce(context)
                try RedisConnection.check(received)
            }
        case .tls(let channel, let reader):
            if !outbox.isEmpty {
                try channel.send(outbox) { () throws(StoreError) in try waitFor(POLLOUT, on: channel.descriptor, until: deadline) }
                outbox = []
            }
            while true {
                if let reply = try RedisConnection.takeReply(from: reader) { return reply }
                // Bytes GnuTLS decrypted already are not seen by poll.
                if channel.pending == 0 { try waitFor(POLLIN, on: channel.descriptor, until: deadline) }
                try channel.receive { bytes throws(StoreError) in
                    received += bytes.count
                    try feed(reader, bytes)
                }
                try RedisConnection.check(received)
            }
        }
    }

    /// Sends the formatted commands on the plain socket, within the call's time. MSG_NOSIGNAL
    /// (SO_NOSIGPIPE on Darwin): a store that went away answers EPIPE, not a signal.
    private func sendOutbox(_ fd: Int32, until deadline: UInt64) throws(StoreError) {
        var offset = 0
        while offset < outbox.count {
            let sent = outbox.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try waitFor(POLLOUT, on: fd, until: deadline)
            } else if errno != EINTR {
                throw StoreError(description: "cannot send to the store: \(String(cString: strerror(errno)))")
            }
        }
        outbox = []
    }

    /// A reply already read into the buffer, without waiting; nil when none is complete yet.
    func bufferedReply() throws(StoreError) -> RedisReply? {
        switch transport {
        case .plain(let context):
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw StoreError(description: RedisConnection.errorText(context)) }
            guard let raw else { return nil }
            defer { freeReplyObject(raw) }
            return try RedisConnection.convert(raw.assumingMemoryBound(to: redisReply.self))
        case .tls(_, let reader): return try RedisConnection.takeReply(from: reader)
        }
    }

    /// Reads what the socket has into the buffer (after poll said it is readable); throws when
    /// the store closed the connection.
    func readAvailable() throws(StoreError) {
        switch transport {
        case .plain(let context):
            // How much it read matters to a reply's size limit only (`nextReply`).
            _ = try readOnce(context)
        case .tls(let channel, let reader):
            // GnuTLS may hold decrypted bytes that poll cannot see: take them all now.
            repeat {
                try channel.receive { bytes throws(StoreError) in try feed(reader, bytes) }
            } while channel.pending > 0
        }
    }
}
