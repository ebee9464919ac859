import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Request heads that libmicrohttpd lets through, or reads differently, and a server behind a
/// proxy must refuse: each gets exactly one error response, and the connection closes, so nothing
/// after it runs as a second request. (A bad path is a 400 like any other reply: those requests
/// ask to close.) On 0.9.75 stubd refuses every case with its JSON error; libmicrohttpd 1.0, at
/// the discipline level stubd asks for, refuses the cases marked `library` itself with its own
/// plain 400 before stubd sees them. Both answer once and close.
@Suite(.timeLimit(.minutes(3))) struct FramingTests {
    struct Case: Sendable {
        let name: String
        let request: String
        let status: Int
        let error: String
        /// Refused by libmicrohttpd 1.0 itself (`StubServer.libraryRefusesMalformedHeads`).
        var library = false
    }

    static let cases: [Case] = [
        Case(name: "Content-Length and Transfer-Encoding",
             request: "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 400, error: "both Content-Length and Transfer-Encoding", library: true),
        Case(name: "two different Content-Lengths", request: "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
             status: 400, error: "conflicting Content-Length headers"),
        Case(name: "unknown transfer coding", request: "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabcd", status: 501,
             error: "unsupported transfer coding", library: true),
        Case(name: "two transfer codings", request: "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", status: 501,
             error: "unsupported transfer coding", library: true),
        Case(name: "chunked twice", request: "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
             status: 501, error: "unsupported transfer coding"),
        Case(name: "no Host", request: "GET /api/v1/users/1 HTTP/1.1\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
             error: "missing Host header", library: true),
        Case(name: "two Hosts", request: "GET /api/v1/users/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400, error: "more than one Host header"),
        Case(name: "space before the colon", request: "GET /api/v1/users/1 HTTP/1.1\r\nHost : a\r\nHost: a\r\n\r\n", status: 400,
             error: "invalid header name", library: true),
        Case(name: "bare CR in a value", request: "GET /api/v1/users/1 HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", status: 400, error: "invalid header value",
             library: true),
        Case(name: "space in the path", request: "GET /api/v1/us ers/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", status: 400, error: "invalid path",
             library: true),
        Case(name: "NUL in the path", request: "GET /api/v1/users%00/../secret.txt HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", status: 400,
             error: "invalid path"),
        Case(name: "NUL before an extension", request: "GET /api/v1/users/1%00.json HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", status: 400,
             error: "invalid path"),
        Case(name: "broken escape", request: "GET /api/v1/users/%zz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", status: 400, error: "invalid path"),
        Case(name: "folded Content-Length",
             request: "POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 400, error: "obsolete line folding in a header", library: true),
        Case(name: "folded Transfer-Encoding",
             request: "POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 400, error: "obsolete line folding in a header", library: true),
        Case(name: "folded ordinary header", request: "GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n\tb c\r\n\r\n", status: 400,
             error: "obsolete line folding in a header", library: true),
        Case(name: "chunked on HTTP/1.0",
             request: "POST /api/v1/changePass HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 400, error: "Transfer-Encoding on HTTP/1.0"),
        Case(name: "chunked on HTTP/1.0, kept alive",
             request: "POST /api/v1/changePass HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/v1/users/2 HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 400, error: "Transfer-Encoding on HTTP/1.0"),
        Case(name: "declared body over the limit", request: "POST /api/v1/users HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999\r\n\r\n", status: 413,
             error: "request body too large"),
    ]

    @Test(arguments: FramingTests.cases.map(\.name))
    func refusedOnceAndClosed(name: String) async throws {
        let want = FramingTests.cases.first { $0.name == name }!
        let byLibrary = want.library && StubServer.libraryRefusesMalformedHeads
        try await withServer { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array(want.request.utf8))
            let (bytes, closed) = await socket.readUntilClosed()
            let answer = String(decoding: bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 \(byLibrary ? 400 : want.status) "), "libmicrohttpd \(StubServer.libmicrohttpdVersion): \(answer.prefix(120))")
            let statusLines = answer.components(separatedBy: "\r\n").filter { $0.wholeMatch(of: /HTTP\/1\.[01] \d{3} .*/) != nil }
            #expect(statusLines.count == 1, "exactly one response: \(answer)")
            if !byLibrary { #expect(answer.contains("\"error\": \"\(want.error)\""), "\(answer)") }
            #expect(closed, "the server closes the connection after refusing the head")
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
