import Foundation
import StubServer
import StubCore
import StubTestSupport
import StubTesting
import Testing
import StubSystem

/// `withStubServer`: a free port for the body, and the server stopped whatever the body does.
@Suite(.timeLimit(.minutes(3))) struct StubTestingTests {
    struct Boom: Error {}

    @Test func theServerAnswersDuringTheBodyAndIsStoppedAfterIt() async throws {
        let (port, status) = try await withStubServer(stubsAt: Repository.shippedStubs, configure: { $0.journalSize = 5 }) { server in
            (server.port, try await HTTPClient.fetch(server.url("/api/v1/users/1")).status)
        }
        #expect(status == 200 && port != 0)
        #expect(throws: (any Error).self) { try RawSocket(port: port) }
    }

    @Test func aThrowingBodyStillStopsTheServer() async throws {
        let seen = Locked(0)
        await #expect(throws: Boom.self) {
            try await withStubServer(stubsAt: Repository.shippedStubs) { server in
                seen.withLock { $0 = server.port }
                throw Boom()
            }
        }
        let port = seen.withLock { $0 }
        #expect(port != 0)
        #expect(throws: (any Error).self) { try RawSocket(port: port) }
    }
}
