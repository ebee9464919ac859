import Foundation
import StubServer
import StubTesting
import Testing

/// Every request head near the limit gets an answer: served up to `--connection-memory` (6 KiB by
/// default), stubd's JSON 431 or 414 naming the limit just above it; never silence.
@Suite struct HeadSizeTests {
    /// The first line and the whole answer to a raw request, or "" after 3 s of silence.
    static func ask(_ server: StubServer, _ request: String) async throws -> String {
        let socket = try RawSocket(port: server.port)
        socket.send(Array(request.utf8))
        return String(decoding: await socket.read(timeoutSeconds: 3), as: UTF8.self)
    }

    @Test func headsUpToTheLimitAreServedAndLargerOnesGetJSON() async throws {
        try await withServer { server in
            let limit = server.configuration.maxHeadBytes
            #expect(limit == 6144)
            // Heads from well under the limit to past it, every 100 bytes: each gets an answer.
            for size in stride(from: limit - 600, through: limit + 600, by: 100) {
                let padding = size - 60
                let header = try await HeadSizeTests.ask(server, "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: \(String(repeating: "a", count: padding))\r\n\r\n")
                let query = try await HeadSizeTests.ask(server, "GET /api/v1/users/1?q=\(String(repeating: "a", count: padding)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                for (kind, answer) in [("header", header), ("query", query)] {
                    let total = padding + 60
                    #expect(!answer.isEmpty, "\(kind) head of about \(total) bytes got no answer")
                    if answer.hasPrefix("HTTP/1.1 200") { continue }
                    // The target alone is `/api/v1/users/1?q=` and the padding: past the limit, 414.
                    let status = kind == "query" && padding + 18 > limit ? "414" : "431"
                    #expect(answer.hasPrefix("HTTP/1.1 \(status)") && answer.contains("application/json") && answer.contains("\(limit) bytes for the request head"),
                            "\(kind) head of about \(total) bytes: \(answer.prefix(300))")
                }
                if size <= limit - 100 { #expect(header.hasPrefix("HTTP/1.1 200") && query.hasPrefix("HTTP/1.1 200"), "\(size) bytes should be served") }
                if size >= limit + 100 { #expect(!header.hasPrefix("HTTP/1.1 200") && !query.hasPrefix("HTTP/1.1 200"), "\(size) bytes should be refused") }
            }
        }
    }
}
