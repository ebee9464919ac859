import CHiredis
@testable import StubFleet
import StubSystem
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to the store, in this process, against stores the tests play: a reply of a
/// type stubd does not read, a store that went away while commands were on their way, an
/// address that never answers a connect.
@Suite(.timeLimit(.minutes(1))) struct StoreConnectionTests {
    @Test func aReplyOfATypeStubdDoesNotReadIsAProtocolError() throws {
        // 7 is a newer hiredis's RESP3 double; it must not read as a null ("no such key").
        var reply = redisReply()
        reply.type = 7
        try withUnsafeMutablePointer(to: &reply) { inner throws in
            let error = #expect(throws: StoreError.self) { try RedisConnection.convert(inner) }
            #expect(error?.description.hasPrefix("Protocol error") == true && error?.description.contains("type 7") == true, "\(String(describing: error))")
            // Inside an array too: the whole reply is refused, not the element dropped.
            var element: UnsafeMutablePointer<redisReply>? = inner
            try withUnsafeMutablePointer(to: &element) { slots throws in
                var array = redisReply()
                array.type = REDIS_REPLY_ARRAY
                array.elements = 1
                array.element = slots
                try withUnsafeMutablePointer(to: &array) { outer throws in
                    #expect(throws: StoreError.self) { try RedisConnection.convert(outer) }
                    inner.pointee.type = REDIS_REPLY_NIL
                    #expect(try RedisConnection.convert(outer) == .array([.null]))
                }
            }
        }
    }

    /// hiredis 0.14 writes with write(2): to a store that closed its end, a second write raises
    /// SIGPIPE, which kills a test host (or an app embedding `StubServer`) that has not ignored
    /// it. SIGPIPE is blocked on this thread for the call, so that it shows as pending instead.
    @Test func aStoreThatWentAwayRaisesNoSignal() throws {
        let listener = try Listener(backlog: 8)
        defer { close(listener.fd) }
        let connection = try RedisConnection(try StateStoreURL("redis://127.0.0.1:\(listener.port)"), timeoutMs: 5000)
        let accepted = try SystemCall.run("accept") { accept(listener.fd, nil, nil) }
        close(accepted)
        // The store's FIN has arrived: the connection's socket reads end of file.
        var ready = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 5000) == 1)

        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var before = sigset_t()
        try SystemCall.pthread("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &pipe, &before) }
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        // More than the socket takes at once: one send goes out, the store's RST answers it, and the next send meets it.
        let big = String(repeating: "x", count: 1 << 20)
        #expect(throws: StoreError.self) { try connection.pipeline((0..<16).map { ["SET", "k\($0)", big] }) }
        var pending = sigset_t()
        sigpending(&pending)
        let raised = sigismember(&pending, SIGPIPE) == 1
        if raised {
            var taken: Int32 = 0
            sigwait(&pipe, &taken)
        }
        #expect(!raised, "sending to a store that went away raised SIGPIPE")
    }

    /// Darwin's connect ignores SO_SNDTIMEO: a store whose address drops the SYN held a
    /// `rediss://` connect about 75 s there. Here the SYN is dropped by a listener whose backlog
    /// is full, which it never accepts from.
    @Test(arguments: ["redis", "rediss"])
    func aConnectThatIsNeverAnsweredEndsAtItsDeadline(scheme: String) throws {
        let listener = try Listener(backlog: 0)
        defer { close(listener.fd) }
        let fillers = try listener.fillBacklog()
        defer { fillers.forEach { close($0) } }
        let url = try StateStoreURL("\(scheme)://127.0.0.1:\(listener.port)")
        let started = MonotonicClock.now()
        #expect(throws: StoreError.self) { _ = try RedisConnection(url, timeoutMs: 300) }
        let ms = (MonotonicClock.now() - started) / 1_000_000
        #expect(ms < 1300, "gave up after \(ms) ms")
        if scheme == "rediss" {
            do { _ = try RedisConnection(url, timeoutMs: 300) } catch {
                #expect(error.description == "cannot reach 127.0.0.1:\(listener.port): no answer within 300 ms", "\(error)")
            }
        }
    }
}

/// A listening socket on 127.0.0.1 that never accepts by itself.
private struct Listener {
    let fd: Int32
    let port: Int

    init(backlog: Int32) throws {
        let made = try SystemCall.run("socket") { socket(AF_INET, LibC.streamSocket, 0) }
        var address = LibC.loopbackAddress(port: 0)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try SystemCall.run("bind") { LibC.bind(made, raw, size) }
                try SystemCall.run("listen") { listen(made, backlog) }
                try SystemCall.run("getsockname") { getsockname(made, raw, &size) }
            }
        }
        fd = made
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connects until the kernel answers no more (the backlog is full and the SYN is dropped):
    /// the sockets, the last one still waiting for its answer.
    func fillBacklog() throws -> [Int32] {
        var made: [Int32] = []
        for _ in 0..<16 {
            let filler = try SystemCall.run("socket") { socket(AF_INET, LibC.streamSocket, 0) }
            made.append(filler)
            do throws(SystemCallError) {
                try LibC.connect(filler, port: port, untilNs: MonotonicClock.now() + 300_000_000)
            } catch {
                if error.errno == ETIMEDOUT { return made }
                throw error
            }
        }
        made.forEach { close($0) }
        throw BacklogNeverFull(port: port)
    }
}

/// Every connect was answered: the kernel did not drop SYNs for a full backlog.
private struct BacklogNeverFull: Error {
    let port: Int
}

extension LibC {
    /// `connect(_:_:_:untilNs:)` to 127.0.0.1:`port`.
    fileprivate static func connect(_ fd: Int32, port: Int, untilNs deadline: UInt64) throws(SystemCallError) {
        var address = LibC.loopbackAddress(port: port)
        try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemCallError) in
                try LibC.connect(fd, raw, socklen_t(MemoryLayout<sockaddr_in>.size), untilNs: deadline)
            }
        }
    }
}
