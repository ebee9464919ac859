import Foundation
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Server-sent events and NDJSON streams over real sockets, read with curl -N and URLSession.
@Suite(.timeLimit(.minutes(3))) struct StreamTests {
    static let events = #"""
    [
      {"data": "hello"},
      {"data": {"token": "Hi"}, "event": "delta", "id": "1"},
      {"data": "two\nlines", "id": "2", "retry": 3000, "after": {"ms": 100}},
      {"data": "[DONE]", "id": "3", "after": {"ms": 100}}
    ]
    """#
    static let framed = "data: hello\n\n" + "id: 1\nevent: delta\ndata: {\"token\":\"Hi\"}\n\n"
        + "id: 2\nretry: 3000\ndata: two\ndata: lines\n\n" + "id: 3\ndata: [DONE]\n\n"

    func stubs(_ extra: [String: String] = [:]) throws -> TemporaryStubDirectory {
        try TemporaryStubDirectory([
            "chat/route.json": #"{"method": "POST", "path": "/v1/chat", "variants": {"200-resumed": {"when": {"headers": {"Last-Event-ID": "*"}}}}}"#,
            "chat/200.events.json": StreamTests.events,
            "chat/200-resumed.events.json": #"[{"data": "b", "id": "2"}, {"data": "c", "id": "3"}, {"data": "d", "id": "4"}]"#,
            "ticks/route.json": #"{"method": "GET", "path": "/ticks", "variants": {"200": {"stream": {"every": {"ms": 100}}}, "200-open": {"stream": {"every": {"ms": 20}}, "keepOpen": true}}}"#,
            "ticks/200.ndjson": "{\"n\":1}\n{\"n\":2}\n\n{\"n\":3}\n",
            "ticks/200-open.ndjson": "{\"n\":1}\n{\"n\":2}\n",
            "slow/route.json": #"{"method": "GET", "path": "/slow", "variants": {"200-cut": {"fault": {"cutAfter": 1}}}}"#,
            "slow/200.events.json": #"[{"data": "1"}, {"data": "2", "after": {"ms": 200}}, {"data": "3", "after": {"ms": 200}}, {"data": "4", "after": {"ms": 200}}, {"data": "5", "after": {"ms": 200}}]"#,
            "slow/200-cut.events.json": #"[{"data": "only"}, {"data": "never"}]"#,
            "long/route.json": #"{"method": "GET", "path": "/long"}"#,
            "long/200.events.json": "[" + (1...10).map { #"{"data": "\#($0)", "after": {"ms": 200}}"# }.joined(separator: ", ") + "]",
        ].merging(extra) { $1 })
    }

    @Test func eventsAreFramedByteForByteAndArriveOverTime() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url) { server in
            let start = monotonicMs()
            let got = try await Curl.run(["-sN", "-D", "-", "-X", "POST", server.url("/v1/chat").absoluteString])
            let elapsed = monotonicMs() - start
            let parts = got.stdout.components(separatedBy: "\r\n\r\n")
            #expect(parts.count == 2)
            let head = parts[0].lowercased()
            #expect(head.contains("content-type: text/event-stream; charset=utf-8") && head.contains("transfer-encoding: chunked") && head.contains("cache-control: no-cache"), "\(head)")
            #expect(parts.last == StreamTests.framed)
            #expect(elapsed >= 200 && elapsed < 3000, "\(elapsed) ms")
            let journal = await server.waitForRequests(route: "chat")
            #expect(journal.first?.stream?.eventsSent == 4 && journal.first?.stream?.clientGone == false)
        }
    }

    @Test func lastEventIDResumesAfterThatEventAndWhenCanMatchIt() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url) { server in
            let resumed = try await Curl.run(["-sN", "-X", "POST", "-H", "Last-Event-ID: 2", server.url("/v1/chat").absoluteString])
            #expect(resumed.stdout == "id: 3\ndata: c\n\nid: 4\ndata: d\n\n")
            let unknown = try await Curl.run(["-sN", "-X", "POST", "-H", "Last-Event-ID: 99", server.url("/v1/chat").absoluteString])
            #expect(unknown.stdout == "id: 2\ndata: b\n\nid: 3\ndata: c\n\nid: 4\ndata: d\n\n", "an unknown id resumes from the start")
        }
    }

    @Test func cutAfterResetsTheConnectionAfterNEvents() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url) { server in
            let cut = try await Curl.run(["-sN", "-H", "X-Stub-Fault: cut-after=2", server.url("/slow").absoluteString])
            #expect(cut.exitCode == 56, "\(cut.stderr)")
            #expect(cut.stdout == "data: 1\n\ndata: 2\n\n")
            let byFile = try await Curl.run(["-sN", server.url("/slow?__variant=200-cut").absoluteString])
            #expect(byFile.exitCode == 56 && byFile.stdout == "data: only\n\n")
            let code = await HTTPClient.errorCode(server.url("/slow?__fault=cut-after=1"))
            #expect(code != nil, "URLSession sees the reset")
            let records = await server.waitForRequests(route: "slow", count: 3)
            #expect(records.map { $0.stream?.eventsSent } == [2, 1, 1])
            // A cut stream is journaled as the reset it is.
            #expect(records.map(\.fault) == [.reset, .reset, .reset])
        }
    }

    @Test func aClientThatLeavesFreesTheStreamAndTheJournalSaysSo() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url) { server in
            let left = try await Curl.run(["-sN", "-m", "0.5", server.url("/long").absoluteString])
            #expect(left.exitCode == 28)
            let records = await server.waitForRequests(route: "long")
            // Events come every 200 ms and curl leaves at 500 ms, having read two: the watcher
            // wakes the waiting stream when the client closes, so at most one more is counted.
            let stream = try #require(records.first?.stream)
            #expect(stream.clientGone && stream.eventsSent >= 2 && stream.eventsSent <= 3, "\(stream)")
            #expect(records.first?.clientGone == true)
            let after = try await HTTPClient.fetch(server.url("/v1/chat"), method: "POST")
            #expect(after.text == StreamTests.framed)
        }
    }

    @Test func ndjsonLinesStreamAndKeepOpenHoldsTheResponse() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url, configure: { $0.holdCapMs = 5000 }) { server in
            let start = monotonicMs()
            let lines = try await Curl.run(["-sN", "-D", "-", server.url("/ticks").absoluteString])
            #expect(lines.stdout.lowercased().contains("content-type: application/x-ndjson"))
            #expect(lines.stdout.hasSuffix("\r\n\r\n{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n"), "\(lines.stdout)")
            #expect(monotonicMs() - start >= 200)
            let open = try await Curl.run(["-sN", "-m", "0.6", server.url("/ticks?__variant=200-open").absoluteString])
            #expect(open.exitCode == 28 && open.stdout == "{\"n\":1}\n{\"n\":2}\n", "still open after the last line")
        }
    }

    @Test func delayThrottleAndURLSessionSeeTheEventsArriveOneByOne() async throws {
        let dir = try stubs()
        try await withServer(stubs: dir.url) { server in
            let delayed = try await Curl.run(["-sN", "-o", "/dev/null", "-w", "%{time_starttransfer}", "-X", "POST", "-H", "X-Stub-Delay: 300", server.url("/v1/chat").absoluteString])
            #expect((Double(delayed.stdout) ?? 0) >= 0.3)
            let start = monotonicMs()
            let throttled = try await Curl.run(["-sN", "-X", "POST", "-H", "X-Stub-Throttle: 200", server.url("/v1/chat").absoluteString])
            #expect(throttled.stdout == StreamTests.framed && monotonicMs() - start >= 400, "throttled to 200 B/s")
            let chunks = try await ChunkReader.read(server.url("/slow"))
            #expect(String(decoding: chunks.flatMap(\.data), as: UTF8.self) == "data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\n")
            let first = try #require(chunks.first), last = try #require(chunks.last)
            #expect(last.atMs - first.atMs >= 600, "the events arrived over time, not at once")
        }
    }

    @Test func checkNamesTheFileAndPlaceOfBadEvents() throws {
        let dir = try TemporaryStubDirectory([
            "a/route.json": #"{"method": "GET", "path": "/a"}"#,
            "a/200.events.json": #"[{"data": "x", "after": {"sec": 1}}, {"event": "no data"}, {"data": "y", "id": "a\nb"}]"#,
            "b/route.json": #"{"method": "GET", "path": "/b", "variants": {"200": {"stream": {"every": {"ms": 10}}}}}"#,
            "b/200.ndjson": "{\"ok\":1}\n{broken\n",
            "c/route.json": #"{"method": "GET", "path": "/c", "variants": {"200": {"keepOpen": true, "fault": {"cutAfter": 1}}}}"#,
            "c/200.json": "{}",
        ])
        guard case .failure(let failure) = StubLoader.load(directory: dir.url.path) else {
            Issue.record("expected problems")
            return
        }
        let lines = failure.problems.map(\.description)
        #expect(lines.contains { $0.hasPrefix("a/200.events.json: [0].after.sec: unknown key") }, "\(lines)")
        #expect(lines.contains("a/200.events.json: [1]: missing \"data\"; expected the event's data, a string or any JSON"), "\(lines)")
        #expect(lines.contains("a/200.events.json: [2].id: expected one line, found a line break"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("b/200.ndjson:2:") && $0.contains("not valid JSON on this line") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("c/route.json: variants.200.keepOpen: expected keepOpen only on a stream") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("c/route.json: variants.200.fault: expected cutAfter only on a stream") }, "\(lines)")
    }
}

/// Reads a response with a URLSession data delegate, noting when each chunk arrived.
final class ChunkReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `chunks` is written on the session's delegate queue (serial) and read after
    // `done` is signalled.
    struct Chunk: Sendable {
        let data: [UInt8]
        let atMs: Double
    }
    private var chunks: [Chunk] = []
    private let done = DispatchSemaphore(value: 0)

    static func read(_ url: URL) async throws -> [Chunk] {
        let reader = ChunkReader()
        return try await OffPool.run {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: queue)
            session.dataTask(with: url).resume()
            reader.done.wait()
            session.finishTasksAndInvalidate()
            return reader.chunks
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        chunks.append(Chunk(data: Array(data), atMs: monotonicMs()))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        done.signal()
    }
}
