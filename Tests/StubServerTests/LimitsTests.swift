import Foundation
@testable import StubServer
import StubSystem
import StubTestSupport
import StubTesting
import Testing

/// Bodies, repeated query parameters and sessions, over real sockets.
@Suite(.timeLimit(.minutes(3))) struct LimitsTests {
    static let stubs = [
        "svc/upload/route.json": #"""
        {"method": "POST", "path": "/upload",
         "variants": {"201-big": {"when": {"body": {"kind": "big"}}}}}
        """#,
        "svc/upload/200.json": #"{"variant": "default"}"#,
        "svc/upload/201-big.json": #"{"variant": "big"}"#,
        "svc/items/route.json": #"""
        {"method": "GET", "path": "/items",
         "variants": {"200-two": {"when": {"query": {"ids[]": "2"}}}}}
        """#,
        "svc/items/200.json": #"{"variant": "default"}"#,
        "svc/items/200-two.json": #"{"variant": "two"}"#,
    ]

    /// A JSON body of about `bytes` bytes whose `kind` field comes last.
    func body(bytes: Int) -> Data {
        Data(#"{"padding": "\#(String(repeating: "x", count: bytes))", "kind": "big"}"#.utf8)
    }

    @Test func bodiesPastTheMemoryBudgetGet503AndTheBudgetComesBack() async throws {
        let stubs = try TemporaryStubDirectory(LimitsTests.stubs)
        try await withServer(stubs: stubs.url, configure: { $0.maxBodyBytes = 600_000; $0.maxBodyMemoryBytes = 1_000_000 }) { server in
            // Three uploads of 500 kB each: two held part-sent (800 kB of the 1 MB budget), and a
            // third sent whole, which passes the budget. Its answer is read before the other two
            // send their last bytes: until the server has refused it, the third may hold budget
            // that those bytes would need (a second 503, seen on a loaded machine).
            let head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500000\r\nConnection: close\r\n\r\n"
            let payload = Array(String(repeating: "x", count: 500_000).utf8)
            let sockets = try (0..<3).map { _ in try RawSocket(port: server.port) }
            // One after the other, each counted before the next starts: sent at once, two bodies
            // could each be part-way when the budget ran out, and both get the 503.
            for (i, socket) in sockets.prefix(2).enumerated() {
                socket.send(Array(head.utf8) + payload[0..<400_000])
                for _ in 0..<500 where server.bridge.bodyBudget.inUse < (i + 1) * 400_000 { try await Task.sleep(nanoseconds: 10_000_000) }
            }
            sockets[2].send(Array(head.utf8) + payload)
            let third = String(String(decoding: await sockets[2].read(), as: UTF8.self).prefix(12))
            for socket in sockets.prefix(2) { socket.send(Array(payload[400_000...])) }
            var statuses: [String] = []
            for socket in sockets.prefix(2) { statuses.append(String(String(decoding: await socket.read(), as: UTF8.self).prefix(12))) }
            statuses.append(third)
            #expect(statuses.filter { $0 == "HTTP/1.1 503" }.count == 1, "\(statuses)")
            // Every byte is given back once the requests are done.
            for _ in 0..<100 where server.bridge.bodyBudget.inUse > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(server.bridge.bodyBudget.inUse == 0)
            let after = try await HTTPClient.fetch(server.url("/upload"), method: "POST", headers: ["Content-Type": "application/json"], body: body(bytes: 400_000))
            #expect(after.status == 201)
        }
    }

    @Test func whenSeesTheWholeBodyUpToTheLimitAndBeyondItIs413() async throws {
        let stubs = try TemporaryStubDirectory(LimitsTests.stubs)
        try await withServer(stubs: stubs.url, configure: { $0.maxBodyBytes = 2 << 20 }) { server in
            let big = try await HTTPClient.fetch(server.url("/upload"), method: "POST", headers: ["Content-Type": "application/json"],
                                                 body: body(bytes: 1_200_000))
            #expect(big.status == 201, "a 1.2 MB body is matched whole: \(big.text)")
            let over = try await HTTPClient.fetch(server.url("/upload"), method: "POST", headers: ["Content-Type": "application/json"],
                                                  body: body(bytes: 3 << 20))
            #expect(over.status == 413)
            #expect(over.text.contains("\"limit\": \"2097152 bytes\""), "\(over.text)")
            // Sent chunked, the size is known only as it arrives: still 413, up to twice the limit;
            // beyond that the connection is closed rather than read forever.
            for (bytes, answered) in [(5 << 19, true), (5 << 20, false)] {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-body-\(UUID().uuidString)")
                try body(bytes: bytes).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let chunked = try await Curl.run(["-s", "-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/json",
                                                  "--data-binary", "@\(file.path)", server.url("/upload").absoluteString])
                #expect(chunked.stdout.contains("request body too large") == answered, "\(bytes): \(chunked.stdout.prefix(200))")
                if !answered { #expect(chunked.exitCode != 0) }
            }
        }
    }

    /// A declared body over the limit: read and dropped when within twice the limit (at least a MiB
    /// past it) so the 413 is not lost to a reset; refused before any byte when the client waits
    /// for `100 Continue` or the body would run further.
    @Test func aDeclaredBodyOverTheLimitGetsItsAnswerWhetherOrNotTheClientWaits() async throws {
        let stubs = try TemporaryStubDirectory(LimitsTests.stubs)
        try await withServer(stubs: stubs.url, configure: { $0.maxBodyBytes = 100_000 }) { server in
            func head(_ length: Int, _ extra: String = "") -> [UInt8] {
                Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\(extra)\r\n".utf8)
            }
            // Sent whole without waiting: the server reads it all, then answers and closes (a
            // reset would lose the answer if it closed with the body still coming).
            let eager = try RawSocket(port: server.port)
            eager.send(head(600_000) + Array(repeating: UInt8(ascii: "x"), count: 600_000))
            let (bytes, closed) = await eager.readUntilClosed()
            let answer = String(decoding: bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
            #expect(answer.contains("\"received\": \"600000 bytes\""), "\(answer.prefix(400))")
            #expect(closed)
            // Waiting for the go-ahead, or declaring more than a MiB past this limit: answered
            // before any body byte is sent.
            for (length, extra) in [(600_000, "Expect: 100-continue\r\n"), (2_000_000, "")] {
                let waiting = try RawSocket(port: server.port)
                waiting.send(head(length, extra))
                let answer = String(decoding: waiting.readSome(), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(length) \(extra): \(answer.prefix(200))")
                #expect(!answer.contains("100 Continue"), "\(answer.prefix(200))")
            }
        }
    }

    @Test func repeatedQueryValuesAreAllJournaledAndWhenMatchesAnyOfThem() async throws {
        let stubs = try TemporaryStubDirectory(LimitsTests.stubs)
        try await withServer(stubs: stubs.url) { server in
            let fetched = try await HTTPClient.fetch(server.url("/items?ids%5B%5D=1&ids%5B%5D=2&page=1"))
            #expect(fetched.text.contains("two"), "\(fetched.text)")
            let journal = try await AdminClient(server: server).object("GET", "/requests?limit=1")
            let entry = try #require((journal["requests"] as? [[String: Any]])?.first)
            let query = try #require(entry["query"] as? [String: Any])
            #expect(query["ids[]"] as? [String] == ["1", "2"])
            #expect(query["page"] as? String == "1")
        }
    }

    @Test func anIdleSessionsOverridesExpire() async throws {
        // The session clock is the test's: idle time passes when the test says, not by waiting.
        let now = Locked<Double>(1_000)
        try await withServer(configure: { $0.sessionTTLSeconds = 5; $0.sessionClock = { now.withLock { $0 } } }) { server in
            let admin = AdminClient(server: server, session: "test-1")
            let headers = ["X-Stub-Session": "test-1"]
            let put = try await admin.call("PUT", "/routes/app/users", json: #"{"variant": "200-empty"}"#)
            #expect(put.status == 200)
            now.withLock { $0 += 4 }
            let overridden = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: headers)
            #expect(overridden.text.contains("[]"), "4 s idle: still overridden")
            now.withLock { $0 += 5.5 }
            let expired = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: headers)
            #expect(expired.text.contains("Jane"), "back to the default")
        }
    }

    @Test func anEmptySessionHeaderIsTheGlobalScopeAndNeverExpiresIt() async throws {
        try await withServer(configure: { $0.maxSessions = 1 }) { server in
            let global = try await AdminClient(server: server).call("PUT", "/routes/app/users", json: #"{"variant": "200-empty"}"#)
            #expect(global.status == 200)
            // curl's `-H 'Name;'` sends the header with an empty value.
            let empty = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "X-Stub-Session;",
                                            "-d", #"{"variant": "404"}"#, server.url("/__stubd/routes/app/user").absoluteString])
            #expect(empty.stdout == "200")
            for session in ["a", "b"] {
                let put = try await AdminClient(server: server, session: session).call("PUT", "/routes/app/user", json: #"{"variant": "404"}"#)
                #expect(put.status == 200)
            }
            let users = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(users.text.contains("[]"), "the global override survives sessions coming and going")
        }
    }

    @Test func beyondTheSessionCapTheOldestGoes() async throws {
        try await withServer(configure: { $0.maxSessions = 2 }) { server in
            for session in ["s1", "s2", "s3"] {
                let admin = AdminClient(server: server, session: session)
                let put = try await admin.call("PUT", "/routes/app/users", json: #"{"variant": "200-empty"}"#)
            #expect(put.status == 200)
            }
            let oldest = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "s1"])
            #expect(oldest.text.contains("Jane"))
            let newest = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "s3"])
            #expect(newest.text.contains("[]"))
            #expect(server.control.sessionCount == 2)
        }
    }
}
