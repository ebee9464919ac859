import Foundation
@testable import StubCore
import Testing
import StubSystem

/// The live journal under the dashboard: the feed's readers and backlogs, the stream's lifecycle
/// with a fake clock, and the words the journal uses for why a variant was chosen and why a near
/// miss did not match.
@Suite struct LiveJournalTests {
    static let ms: UInt64 = 1_000_000

    func record(_ path: String, session: String? = nil, status: Int = 200) -> RequestRecord {
        RequestRecord(request: StubRequest(method: "GET", path: path), session: session, routeID: nil, variant: nil, status: status,
                      delayMs: 0, fault: nil, elapsedMs: 0, bodyBytes: 0)
    }

    @Test func aReaderGetsItsScopesEntriesOnceAndParksOnlyWhenNothingIsWaiting() {
        let feed = JournalFeed(capacity: 4, backlog: 100)
        #expect(!feed.hasReaders)
        let all = feed.open(scope: nil)!
        let mine = feed.open(scope: .session("a"))!
        #expect(feed.hasReaders)
        #expect(feed.park(all, ticket: 7), "nothing waiting: parked")
        let woken = feed.publish(RequestJournal.Entry(id: 1, record: record("/x", session: "b")))
        #expect(woken == [7], "the parked reader is woken, once")
        #expect(feed.publish(RequestJournal.Entry(id: 2, record: record("/y", session: "a"))).isEmpty, "no one parked any more")
        #expect(feed.take(all).entries.map(\.id) == [1, 2])
        #expect(feed.take(mine).entries.map(\.id) == [2], "a session's reader sees only its session")
        #expect(feed.take(all).isEmpty, "taken once")
        _ = feed.publish(RequestJournal.Entry(id: 3, record: record("/z")))
        #expect(!feed.park(all, ticket: 8), "something waits: the caller wakes it at once")
        feed.close(all)
        feed.close(mine)
        #expect(!feed.hasReaders)
    }

    @Test func aSlowReaderLosesItsOldestEntriesAndIsToldHowMany() {
        let feed = JournalFeed(capacity: 1, backlog: 50)
        let reader = feed.open(scope: nil)!
        for id in 1...120 { _ = feed.publish(RequestJournal.Entry(id: id, record: record("/p"))) }
        let batch = feed.take(reader)
        #expect(batch.entries.count <= 50 && batch.entries.last?.id == 120)
        #expect(batch.dropped.total + batch.entries.count == 120, "every entry is either sent or counted as dropped")
        #expect(batch.dropped.byClass == ["2": batch.dropped.total], "counted by status class")
        #expect(feed.open(scope: nil) == nil, "capacity 1: a second reader is refused")
    }

    @Test func aBatchKeepsItsNewestEntriesAndCountsTheRestByStatusClass() {
        var batch = JournalFeed.Batch(entries: (1...10).map { id in
            var r = record("/p", status: [200, 404, 503][id % 3])
            if id == 10 { r.fault = .reset; r.status = 0 }
            return RequestJournal.Entry(id: id, record: r)
        })
        batch.keepNewest(3)
        #expect(batch.entries.map(\.id) == [8, 9, 10])
        #expect(batch.dropped.total == 7 && batch.dropped.byClass == ["2": 2, "4": 3, "5": 2])
    }

    /// Requests recorded from many threads at once reach a live reader in id order, none twice,
    /// none missing.
    @Test func entriesRecordedFromManyThreadsArriveInOrderAndWhole() throws {
        let control = StubControl(journalSize: 10_000)
        let reader = control.feed.open(scope: nil)!
        let taken = Locked<[Int]>([])
        let done = AtomicWord<Bool>(false)
        // The consumer says it has ended: the test waits on that signal, with a deadline.
        let finished = DispatchSemaphore(value: 0)
        let consumer = Thread {
            while !done.load(ordering: .acquiring) {
                let ids = control.feed.take(reader).entries.map(\.id)
                taken.withLock { $0 += ids }
            }
            finished.signal()
        }
        consumer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<500 { control.record(record("/t\(thread)/\(i)")) }
        }
        done.store(true, ordering: .releasing)
        try #require(finished.wait(timeout: .now() + 10) == .success, "the consumer thread did not end within 10 s")
        let ids = taken.withLock { $0 } + control.feed.take(reader).entries.map(\.id)
        #expect(ids == Array(1...2000))
    }

    @Test func aReadersFilterIsAppliedBeforeItsBacklogIsTrimmed() {
        let feed = JournalFeed(capacity: 2, backlog: 10)
        let reader = feed.open(scope: nil, filter: JournalFilter(path: "/wanted"))!
        for id in 1...100 { _ = feed.publish(RequestJournal.Entry(id: id, record: record(id % 10 == 0 ? "/wanted" : "/other"))) }
        let batch = feed.take(reader)
        #expect(batch.entries.map(\.id) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] && batch.dropped.total == 0,
                "the other path takes no room and counts as nothing")
    }

    @Test func controlChangesWakeEveryReader() {
        let feed = JournalFeed()
        let a = feed.open(scope: nil)!, b = feed.open(scope: .session("s"))!
        #expect(feed.park(a, ticket: 1) && feed.park(b, ticket: 2))
        #expect(Set(feed.changed()) == [1, 2])
        #expect(feed.take(a).changed && feed.take(b).changed)
    }

    /// A stream through the request's lifecycle: the entries journaled before it (asked for with
    /// `since`), then a wait, then a batch after a request is recorded, then the end.
    @Test func theStreamSendsTheBacklogThenWaitsThenSendsNewEntries() throws {
        let stubs = try TemporaryStubs(["app/a/route.json": #"{"method": "GET", "path": "/a"}"#, "app/a/200.json": "{}"])
        let catalog = try stubs.catalog()
        let control = StubControl(journalSize: 100)
        let host = InMemoryHost(catalog)
        let admin = AdminAPI(control: control, host: host, token: nil, version: "test")
        let env = LifecycleEnvironment(responder: StubResponder(control: control, admin: admin), holdCapNs: 1000 * Self.ms)
        let lock = Locked<[UInt64]>([])
        control.setReleaser { tickets in lock.withLock { $0 += tickets } }

        var before = RequestLifecycle()
        _ = before.requestComplete(FakeRequest("/a"), catalog: catalog, env: env, now: 1)
        let stream = FakeRequest("/__stubd/journal/stream?since=0")
        var life = RequestLifecycle()
        guard case .respond(200, .pulled(nil, let headers)) = life.requestComplete(stream, catalog: catalog, env: env, now: 1) else {
            Issue.record("no stream: \(life.phase)"); return
        }
        #expect(headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/event-stream") })
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        func pull(at now: UInt64) -> (PullResult, String) {
            buffer.withUnsafeMutableBytes { raw in
                let result = life.pull(at: 0, into: PullBuffer(raw), now: now, stopping: false, clientGone: false)
                if case .copied(let n) = result { return (result, String(decoding: raw.prefix(n), as: UTF8.self)) }
                return (result, "")
            }
        }
        let (_, first) = pull(at: 2)
        #expect(first.contains("id: 1\nevent: request\n") && first.contains("\"path\":\"/a\""), "the backlog comes first")
        guard case .wait(let until) = pull(at: 3).0 else { Issue.record("expected a wait"); return }
        #expect(until == 2 + LiveJournalCursor.keepAliveNs, "a keep-alive is due 15 s after the last bytes")
        life.suspended(ticket: 42, env: env)
        var after = RequestLifecycle()
        _ = after.requestComplete(FakeRequest("/nope"), catalog: catalog, env: env, now: 4)
        #expect(lock.withLock { $0 } == [42], "recording a request wakes the parked stream")
        let (_, second) = pull(at: 5)
        #expect(second.contains("id: 2\n") && second.contains("\"nearMisses\":[{") && !second.contains("id: 1\n"))
        // Under load entries gather for the batch gap: they neither wake the stream nor go one by one.
        var third = RequestLifecycle(), fourth = RequestLifecycle()
        _ = third.requestComplete(FakeRequest("/a"), catalog: catalog, env: env, now: 6)
        guard case .wait(let gap) = pull(at: 7).0 else { Issue.record("expected the batch gap"); return }
        #expect(gap == 5 + LiveJournalCursor.batchGapNs)
        life.suspended(ticket: 43, env: env)
        _ = fourth.requestComplete(FakeRequest("/a"), catalog: catalog, env: env, now: 8)
        #expect(lock.withLock { $0 } == [42], "entries during the gap do not wake the stream")
        let (_, batch) = pull(at: gap)
        #expect(batch.contains("id: 3\n") && batch.contains("id: 4\n"), "one batch")
        let (_, keepAlive) = pull(at: gap + LiveJournalCursor.keepAliveNs + 1)
        #expect(keepAlive == ": keep-alive\n\n")
        #expect(life.pull(at: 0, into: PullBuffer(UnsafeMutableRawBufferPointer(start: nil, count: 0)), now: 7, stopping: true, clientGone: false) == .abort)
        life.responseFreed(stream, env: env, now: 8)
        #expect(!control.feed.hasReaders, "the reader is closed with the response")
        #expect(control.journal(session: nil).count == 4, "the stream itself is not journaled")
    }

    @Test func aStreamAskingForMoreThanAThousandEarlierEntriesGetsTheNewestAndACount() throws {
        let stubs = try TemporaryStubs(["app/a/route.json": #"{"method": "GET", "path": "/a"}"#, "app/a/200.json": "{}"])
        let catalog = try stubs.catalog()
        let control = StubControl(journalSize: 5000)
        let env = LifecycleEnvironment(responder: StubResponder(control: control, admin: AdminAPI(control: control, host: InMemoryHost(catalog),
                                                                                                  token: nil, version: "t")),
                                       holdCapNs: Self.ms)
        for _ in 0..<1500 {
            var life = RequestLifecycle()
            _ = life.requestComplete(FakeRequest("/a"), catalog: catalog, env: env, now: 1)
        }
        var life = RequestLifecycle()
        _ = life.requestComplete(FakeRequest("/__stubd/journal/stream?since=0"), catalog: catalog, env: env, now: 2)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let result = buffer.withUnsafeMutableBytes { life.pull(at: 0, into: PullBuffer($0), now: 3, stopping: false, clientGone: false) }
            guard case .copied(let n) = result else { break }
            text += String(decoding: buffer.prefix(n), as: UTF8.self)
        }
        #expect(text.hasPrefix("retry: 2000\n") && text.contains("event: hello\ndata: {\"lastID\":1500}"))
        #expect(text.contains("event: dropped\n" + #"data: {"dropped":500,"byStatus":{"2":500}"#), "the 500 oldest are counted")
        #expect(text.components(separatedBy: "event: request").count - 1 == 1000)
        #expect(text.contains("id: 501\n") && !text.contains("id: 500\n") && text.contains("id: 1500\n"))
        life.responseFreed(FakeRequest("/x"), env: env, now: 4)
    }

    @Test func nearMissesSayWhereTheyParted() throws {
        let stubs = try TemporaryStubs([
            "app/_service.json": #"{"basePath": "/api/v1"}"#,
            "app/user/route.json": #"{"method": "GET", "path": "/users/{id}"}"#, "app/user/200.json": "{}",
            "app/login/route.json": #"{"method": "POST", "path": "/login"}"#, "app/login/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        let user = try #require(catalog.routes.first { $0.id == "app/user" })
        let login = try #require(catalog.routes.first { $0.id == "app/login" })
        #expect(RouteMatcher.missReason(method: "GET", path: "/api/v1/user/1", route: user) == #"segment 3: the route has "users", the request "user""#)
        #expect(RouteMatcher.missReason(method: "GET", path: "/api/v1/users", route: user) == "the route has 4 path segments, the request 3")
        #expect(RouteMatcher.missReason(method: "GET", path: "/api/v1/users/1/x", route: user) == "the route has 4 path segments, the request 5")
        #expect(RouteMatcher.missReason(method: "GET", path: "/api/v1/login", route: login) == "the route answers POST, the request is GET")
    }

    /// A segment pattern (`{Sid}.json`) that a request's segment does not fit is named, with
    /// what the pattern expected, not passed over as if it matched.
    @Test func nearMissesSayWhereASegmentPatternParted() throws {
        let stubs = try TemporaryStubs([
            "twilio/call/route.json": #"{"method": "GET", "path": "/Calls/{Sid}.json"}"#, "twilio/call/200.json": "{}",
            "twilio/thumb/route.json": #"{"method": "GET", "path": "/thumbs/thumb.{ext}"}"#, "twilio/thumb/200.json": "{}",
            "twilio/version/route.json": #"{"method": "GET", "path": "/v/v{major}.{minor}"}"#, "twilio/version/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        let call = try #require(catalog.routes.first { $0.id == "twilio/call" })
        let thumb = try #require(catalog.routes.first { $0.id == "twilio/thumb" })
        let version = try #require(catalog.routes.first { $0.id == "twilio/version" })
        #expect(RouteMatcher.missReason(method: "GET", path: "/Calls/CA1.xml", route: call)
                == #"segment 2: the route has "{Sid}.json", the request "CA1.xml" (it does not end with ".json")"#)
        #expect(RouteMatcher.missReason(method: "GET", path: "/Calls/.json", route: call)
                == #"segment 2: the route has "{Sid}.json", the request ".json" ({Sid} would be empty)"#)
        #expect(RouteMatcher.missReason(method: "GET", path: "/thumbs/photo.png", route: thumb)
                == #"segment 2: the route has "thumb.{ext}", the request "photo.png" (it does not start with "thumb.")"#)
        #expect(RouteMatcher.missReason(method: "GET", path: "/v/v2", route: version)
                == #"segment 2: the route has "v{major}.{minor}", the request "v2" (it has no "." after {major})"#)
        // A segment that fits (percent-encoded too) goes on to the method.
        #expect(RouteMatcher.missReason(method: "POST", path: "/Calls/CA%31.json", route: call) == "the route answers GET, the request is POST")
    }

    @Test func theJournalSaysWhichSequenceStepChoseTheVariant() throws {
        let stubs = try TemporaryStubs([
            "app/a/route.json": #"{"method": "GET", "path": "/a", "variants": {"200": {"when": {"query": {"x": "1"}}}}}"#,
            "app/a/200.json": "{}", "app/a/500.json": "{}", "app/a/503.json": "{}",
        ])
        let catalog = try stubs.catalog()
        let control = StubControl(journalSize: 10)
        let responder = StubResponder(control: control, admin: nil)
        try control.setOverride(RouteOverride(sequence: ["503", "500"]), for: catalog.routes[0], session: nil)
        let env = LifecycleEnvironment(responder: responder, holdCapNs: Self.ms)
        for target in ["/a", "/a", "/a?x=1", "/a", "/a?__variant=503"] {
            var life = RequestLifecycle()
            _ = life.requestComplete(FakeRequest(target), catalog: catalog, env: env, now: 1)
        }
        let entries = control.journal(session: nil)
        let selections = entries.map { AdminAPI.selectionJSON($0.record).serialized() }
        #expect(selections == [#"{"by":"sequence","step":1,"of":2}"#, #"{"by":"sequence","step":2,"of":2}"#, #"{"by":"when"}"#,
                               #"{"by":"default"}"#, #"{"by":"request"}"#])
    }
}
