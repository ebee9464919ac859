import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// A fault's raw bytes going to clients that do not read them never hold up a serving thread:
/// the rest is written from a thread of its own while the connection waits. (Each such client
/// used to cost its polling thread up to a second per full socket buffer, and lost the rest.)
@Suite(.timeLimit(.minutes(2))) struct SlowReaderFaultTests {
    /// A JSON body of 24 MiB: half of it is more than the kernel buffers for one connection.
    static let big = "[" + String(repeating: "1234567,", count: (24 << 20) / 8 - 1) + "1234567]"

    static func stubs() throws -> TemporaryStubDirectory {
        try try TemporaryStubDirectory([
            "app/big/route.json": #"{"method": "GET", "path": "/big"}"#,
            "app/big/200.json": SlowReaderFaultTests.big,
            "app/ping/route.json": #"{"method": "GET", "path": "/ping"}"#,
            "app/ping/200.json": #"{"ok": true}"#,
        ])
    }

    @Test func clientsThatDoNotReadATruncatedBodyHoldUpNoOne() async throws {
        let stubs = try SlowReaderFaultTests.stubs()
        // One serving thread: whatever blocks it blocks every request.
        try await withServer(stubs: stubs.url, configure: { $0.ioThreads = 1 }) { server in
            // Ten clients ask for 24 MiB cut in half and read nothing yet.
            var slow: [RawSocket] = []
            for _ in 0..<10 {
                let socket = try RawSocket(port: server.port, receiveBuffer: 4096)
                socket.send(Array("GET /big?__fault=truncate HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
                slow.append(socket)
            }
            // A plain request beside them is answered at once (before: after 10 s, a second per client).
            let probe = try RawSocket(port: server.port)
            probe.send(Array("GET /ping HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8))
            let answer = String(decoding: probe.readAll(timeoutSeconds: 5), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(100))")
            // Each slow client still gets its head and exactly half the body, then the close
            // (before: what did not fit its buffers within a second was lost).
            for socket in slow.prefix(3) {
                let (bytes, closed) = socket.readToEnd(timeoutSeconds: 10)
                let text = String(decoding: bytes, as: UTF8.self)
                let head = try #require(text.range(of: "\r\n\r\n"), "\(text.prefix(200))")
                #expect(text.hasPrefix("HTTP/1.1 200"))
                #expect(text[head.upperBound...].utf8.count == SlowReaderFaultTests.big.utf8.count / 2)
                #expect(closed)
            }
        }
    }
}
