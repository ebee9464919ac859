import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Every request head gets an answer: served up to `--connection-memory` (8 KiB by default),
/// stubd's JSON 431 or 414 naming the limit above it, up to about twice the limit; past that the
/// one libmicrohttpd writes itself (a plain 431 or 414); never silence, on 0.9.75 and 1.0.
@Suite(.timeLimit(.minutes(3))) struct HeadSizeTests {
    /// The first line and the whole answer to a raw request, or "" after 3 s of silence.
    static func ask(_ server: StubServer, _ request: String) async throws -> String {
        let socket = try RawSocket(port: server.port)
        socket.send(Array(request.utf8))
        return String(decoding: await socket.read(timeoutSeconds: 3), as: UTF8.self)
    }

    /// A head of `size` bytes, padded in a header or in the query.
    static func head(_ size: Int, inQuery: Bool) -> String {
        let base = inQuery ? "GET /api/v1/users/1?q= HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            : "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: \r\n\r\n"
        let padding = String(repeating: "a", count: max(0, size - base.utf8.count))
        return inQuery ? base.replacingOccurrences(of: "?q=", with: "?q=" + padding) : base.replacingOccurrences(of: "X-Pad: ", with: "X-Pad: " + padding)
    }

    /// From a few bytes to 64 KiB, including the sizes around the connection memory (twice the
    /// limit) where libmicrohttpd has no room left to answer: served up to the limit, stubd's JSON
    /// up to twice it, an HTTP answer of 431 or 414 at every size, and never silence.
    @Test func everyHeadUpTo64KiBIsAnswered() async throws {
        try await withServer { server in
            let limit = server.configuration.maxHeadBytes
            let edges = stride(from: 2 * limit - 700, through: 2 * limit + 300, by: 50)
            for size in [64, 1024, limit, limit + 1, limit + 1000, 3 * limit / 2] + Array(edges) + [24_576, 32_768, 65_536] {
                for inQuery in [false, true] {
                    let request = HeadSizeTests.head(size, inQuery: inQuery)
                    let answer = try await HeadSizeTests.ask(server, request)
                    let what = "\(size)-byte head (\(inQuery ? "long query" : "long header"), libmicrohttpd \(StubServer.libmicrohttpdVersion))"
                    #expect(answer.hasPrefix("HTTP/1.1 "), "\(what) got no answer")
                    if size <= limit {
                        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(what): \(answer.prefix(200))")
                        continue
                    }
                    let status = request.split(separator: " ")[1].utf8.count > limit ? "414" : "431"
                    if size <= 2 * limit - 200 {
                        #expect(answer.hasPrefix("HTTP/1.1 \(status)") && answer.contains("application/json") && answer.contains("\(limit) bytes for the request head"),
                                "\(what): \(answer.prefix(300))")
                    } else {
                        #expect(answer.hasPrefix("HTTP/1.1 431") || answer.hasPrefix("HTTP/1.1 414"), "\(what): \(answer.prefix(300))")
                    }
                }
            }
        }
    }

    /// libmicrohttpd keeps an entry per header beside the head's bytes (about 56 bytes each), so
    /// a head at the limit made of many short headers needs more than the limit: the connection
    /// memory (twice the limit) serves one of 60 headers, which the limit and 1 KiB did not.
    @Test func aHeadAtTheLimitMadeOfManyHeadersIsServed() async throws {
        try await withServer { server in
            let limit = server.configuration.maxHeadBytes
            var head = "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + (0..<60).map { "X-H\($0): v\r\n" }.joined()
            head += "X-Pad: " + String(repeating: "a", count: limit - head.utf8.count - 11) + "\r\n\r\n"
            #expect(head.utf8.count == limit)
            let answer = try await HeadSizeTests.ask(server, head)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        }
    }

    @Test func headsUpToTheLimitAreServedAndLargerOnesGetJSON() async throws {
        try await withServer { server in
            let limit = server.configuration.maxHeadBytes
            #expect(limit == 8192)
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
