import Foundation
import StubCore
@testable import StubServer
import Testing
import StubTestSupport

/// The buffered access log: lines reach the file in order, a quiet server's line shows up without
/// waiting for the buffer to fill, and stopping writes what is left.
@Suite(.timeLimit(.minutes(3))) struct AccessLogTests {
    func record(_ i: Int) -> RequestRecord {
        RequestRecord(request: StubRequest(method: "GET", path: "/items/\(i)", query: [("page", "2")]), session: nil,
                      routeID: "app/items", variant: "200", status: 200, delayMs: 0, fault: nil, elapsedMs: 0.25, bodyBytes: 0)
    }

    func withLogFile(_ body: (Int32, URL) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-log-\(UUID().uuidString)")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd); try? FileManager.default.removeItem(at: url) }
        try body(fd, url)
    }

    @Test func aGraphQLRequestsLineNamesItsOperationAndVariables() throws {
        let body = Array(#"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id } }", "variables": {"id": "1"}}"#.utf8)
        var r = RequestRecord(request: StubRequest(method: "POST", path: "/graphql", body: body), session: nil, routeID: "gql/user",
                              variant: "200", status: 200, delayMs: 0, fault: nil, elapsedMs: 0.25, bodyBytes: body.count)
        r.operation = "GetUser"
        #expect(AccessLogLine.format(r, as: .text) == #"POST /graphql 200 gql/user [200] operation:GetUser variables:{"id":"1"} 0.3 ms"# + "\n")
        let json = try #require(AccessLogLine.format(r, as: .json))
        #expect(json.contains(#""operation":"GetUser","variables":"{\"id\":\"1\"}""#), "\(json)")
    }

    @Test func aLineNamesTheHTTPVersionWhenItIsNotHTTP11() throws {
        var r = record(1)
        #expect(AccessLogLine.format(r, as: .text) == "GET /items/1?page=2 200 app/items [200] 0.3 ms\n")
        #expect(AccessLogLine.format(r, as: .json)?.contains("httpVersion") == false)
        r.httpVersion = .http10
        #expect(AccessLogLine.format(r, as: .text) == "GET /items/1?page=2 HTTP/1.0 200 app/items [200] 0.3 ms\n")
        #expect(AccessLogLine.format(r, as: .json)?.contains(#""httpVersion":"HTTP/1.0""#) == true)
    }

    @Test func aQuietServersLineIsWrittenWithoutWaitingForMore() throws {
        try withLogFile { fd, url in
            let log = try AccessLog(format: .text, fd: fd)
            defer { log.stop() }
            log.log(record(1))
            let deadline = ContinuousClock.now + .seconds(5)  // monotonic: the wall clock may step
            var text = ""
            while ContinuousClock.now < deadline {
                text = try String(contentsOf: url, encoding: .utf8)
                if !text.isEmpty { break }
                usleep(10_000)
            }
            #expect(text == "GET /items/1?page=2 200 app/items [200] 0.3 ms\n")
        }
    }

    @Test func manyLinesArriveWholeAndInOrderByStop() throws {
        try withLogFile { fd, url in
            let log = try AccessLog(format: .json, fd: fd)
            for i in 0..<5000 { log.log(record(i)) }
            log.stop()
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 5000)
            #expect(lines.first == #"{"method":"GET","path":"/items/0?page=2","route":"app/items","variant":"200","status":200,"ms":0.3}"#)
            #expect(lines.enumerated().allSatisfy { i, line in line.contains("\"/items/\(i)?page=2\"") })
        }
    }

    /// The log on a live server under concurrent requests, so that a Thread Sanitizer run of the
    /// suite (`swift test --sanitize=thread`) covers its locks: every request is answered while
    /// lines are buffered and flushed.
    @Test func aLiveServerWithTheLogOnAnswersConcurrentRequests() async throws {
        try await withServer(configure: { $0.log = .json }) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<64 { group.addTask { try await HTTPClient.fetch(server.url("/api/v1/users/\(i % 3 + 1)")).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 64)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }
}
