import Foundation
import StubdClient
import StubServer
import StubTestSupport
import Testing

/// The journal records the HTTP version each request came in, as the admin API and
/// `StubdClient` show it.
@Suite(.timeLimit(.minutes(1))) struct JournalHTTPVersionTests {
    @Test func theJournalSaysWhichHTTPVersionEachRequestCameIn() async throws {
        try await withServer { server in
            for version in ["HTTP/1.0", "HTTP/1.1"] {
                let socket = try RawSocket(port: server.port)
                socket.send(Array("GET /api/v1/users/1?v=\(version) \(version)\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                let answer = String(decoding: await socket.readUntilClosed().bytes, as: UTF8.self)
                #expect(answer.contains(" 200 OK"), "\(version): \(answer.prefix(100))")
            }
            let entries = try await StubdClient(baseURL: server.baseURL).journal(route: "app/user")
            #expect(entries.map(\.httpVersion) == ["HTTP/1.0", "HTTP/1.1"])
            #expect(entries.map { $0.queryValue("v") } == ["HTTP/1.0", "HTTP/1.1"])
            #expect(server.journal(route: "app/user").map(\.httpVersion) == [.http10, .http11])
        }
    }
}
