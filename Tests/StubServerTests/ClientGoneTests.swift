import Foundation
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Clients that leave while their request waits (delayed, held, hanging, deferred): the server
/// notices at once, the hold count drops, and the journal says the client left.
@Suite(.timeLimit(.minutes(3))) struct ClientGoneTests {
    /// Sends `target` on a raw connection, waits `ms`, and closes the connection.
    static func leave(_ server: StubServer, _ target: String, afterMs ms: UInt32) async throws {
        let socket = try RawSocket(port: server.port)
        socket.send(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try await Task.sleep(nanoseconds: UInt64(ms) * 1_000_000)
        close(socket.fd)
    }

    @Test func aHeldRequestWhoseClientLeftLeavesTheHeldCount() async throws {
        try await withServer { server in
            try server.hold(route: "app/users")
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(await server.waitUntilHeld(route: "app/users", count: 1, timeout: 3))
            shutdown(socket.fd, Int32(SHUT_RDWR))
            let started = monotonicMs()
            while server.heldCount(route: "app/users") > 0 && monotonicMs() - started < 3000 { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(server.heldCount(route: "app/users") == 0, "still counted \(monotonicMs() - started) ms after the client left")
            #expect(server.release(route: "app/users") == 0, "nothing left to release")
            let records = await server.waitForRequests(route: "app/users", timeout: 3)
            #expect(records.first?.clientGone == true && records.first?.status == 0, "\(String(describing: records.first))")
        }
    }

    @Test func aDelayedRequestWhoseClientLeftIsJournaledAtOnce() async throws {
        try await withServer { server in
            try await ClientGoneTests.leave(server, "/api/v1/users?__delay=5000", afterMs: 100)
            let start = monotonicMs()
            let records = await server.waitForRequests(route: "app/users", timeout: 3)
            #expect(monotonicMs() - start < 2000, "journaled \(monotonicMs() - start) ms after the client left")
            #expect(records.first?.clientGone == true && records.first?.status == 0, "\(String(describing: records.first))")
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal"))
            #expect(journal.text.contains(#""clientGone" : true"#) || journal.text.contains(#""clientGone": true"#), "\(journal.text)")
        }
    }

    @Test func aHangingRequestWhoseClientLeftIsJournaledAsAHang() async throws {
        try await withServer { server in
            try await ClientGoneTests.leave(server, "/api/v1/users?__fault=hang", afterMs: 100)
            let records = await server.waitForRequests(route: "app/users", timeout: 3)
            #expect(records.first?.fault == .hang && records.first?.clientGone == true, "\(String(describing: records.first))")
            #expect(server.control.journal(session: nil).count == 1)
        }
    }

    @Test func aServerStoppingWhileClientsWaitAnswersOrClosesEachOnce() async throws {
        let server = try StubServer(stubsAt: Repository.shippedStubs)
        try server.hold(route: "app/user")
        let held = try RawSocket(port: server.port), delayed = try RawSocket(port: server.port)
        held.send(Array("GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        delayed.send(Array("GET /api/v1/users?__delay=60000 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(await server.waitUntilHeld(route: "app/user", count: 1, timeout: 3))
        let start = monotonicMs()
        try await OffPool.run { server.stop() }
        #expect(monotonicMs() - start < 3000)
        let heldAnswer = String(decoding: await held.read(timeoutSeconds: 3), as: UTF8.self)
        #expect(heldAnswer.hasPrefix("HTTP/1.1 503") && heldAnswer.contains("the server is stopping"), "\(heldAnswer)")
        #expect(await delayed.read(timeoutSeconds: 3).isEmpty, "a delayed request is closed without an answer at stop")
    }
}
