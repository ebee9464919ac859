import Foundation
import StubServer
import StubTesting
import Testing

/// Request heads that libmicrohttpd 0.9.75 lets through and a server behind a proxy must refuse:
/// each gets exactly one error response, and the connection closes, so nothing after it runs as a
/// second request. (A bad path is a 400 like any other reply: those requests ask to close.)
@Suite struct FramingTests {
    static let cases: [(name: String, request: String, status: Int, error: String)] = [
        ("Content-Length and Transfer-Encoding",
         "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
         400, "both Content-Length and Transfer-Encoding"),
        ("two different Content-Lengths", "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
         400, "conflicting Content-Length headers"),
        ("unknown transfer coding", "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabcd", 501, "unsupported transfer coding"),
        ("two transfer codings", "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "unsupported transfer coding"),
        ("no Host", "GET /api/v1/users/1 HTTP/1.1\r\n\r\n", 400, "missing Host header"),
        ("two Hosts", "GET /api/v1/users/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "more than one Host header"),
        ("space before the colon", "GET /api/v1/users/1 HTTP/1.1\r\nHost : a\r\nHost: a\r\n\r\n", 400, "invalid header name"),
        ("bare CR in a value", "GET /api/v1/users/1 HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", 400, "invalid header value"),
        ("space in the path", "GET /api/v1/us ers/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 400, "invalid path"),
        ("NUL in the path", "GET /api/v1/users%00/../secret.txt HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 400, "invalid path"),
        ("NUL before an extension", "GET /api/v1/users/1%00.json HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 400, "invalid path"),
        ("broken escape", "GET /api/v1/users/%zz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 400, "invalid path"),
        ("folded Content-Length", "POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
         400, "obsolete line folding in a header"),
        ("folded Transfer-Encoding", "POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
         400, "obsolete line folding in a header"),
        ("folded ordinary header", "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n\tb c\r\n\r\n", 400, "obsolete line folding in a header"),
        ("chunked on HTTP/1.0", "POST /api/v1/changePass HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "Transfer-Encoding on HTTP/1.0"),
        ("declared body over the limit", "POST /api/v1/users HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999\r\n\r\n", 413, "request body too large"),
    ]

    @Test(arguments: FramingTests.cases.map(\.name))
    func refusedOnceAndClosed(name: String) async throws {
        let want = FramingTests.cases.first { $0.name == name }!
        try await withServer { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array(want.request.utf8))
            let answer = String(decoding: await socket.read(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 \(want.status) "), "\(answer.prefix(120))")
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "exactly one response: \(answer)")
            #expect(answer.contains("\"error\": \"\(want.error)\""), "\(answer)")
            // The socket was closed by the server (read returned at end of stream, not at the timeout).
            #expect(answer.lowercased().contains("connection: close"))
        }
    }

    @Test func unfoldedHeadersOfEveryShapePass() async throws {
        try await withServer { server in
            let socket = try RawSocket(port: server.port)
            let head = "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Spaced:      v  \r\nX-Tab:\t\tt\r\nX-Long: \(String(repeating: "a", count: 900))\r\nConnection: close\r\n\r\n"
            socket.send(Array(head.utf8))
            let answer = String(decoding: await socket.read(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer.prefix(200))")
        }
    }

    @Test func aNulInAPathIsNotServedAsTheShorterPath() async throws {
        try await withServer { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /api/v1/users%00/../secret.txt HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8))
            let answer = String(decoding: await socket.read(), as: UTF8.self)
            #expect(answer.contains("\"segment\": \"users%00\""))
            #expect(!answer.contains("Jane"), "no user list for a truncated path")
        }
    }
}
