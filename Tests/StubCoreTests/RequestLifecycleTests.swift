import Foundation
@testable import StubCore
import Testing
import StubSystem

/// A request as the lifecycle sees it, without a transport.
final class FakeRequest: LifecycleRequest {
    var request: StubRequest
    let startNs: UInt64
    let isSecure: Bool
    var bodyBytesSeen: Int { request.body.count }
    private(set) var copied = false

    init(_ target: String, method: String = "GET", headers: [(String, String)] = [], start: UInt64 = 1_000_000_000, secure: Bool = false) {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
        } : []
        request = StubRequest(method: method, path: String(parts[0]), query: query, headers: headers.map { ($0.0, $0.1) }, body: [],
                              scheme: secure ? .https : .http)
        startNs = start
        isSecure = secure
    }

    var method: String { request.method }
    var path: String { request.path }
    var body: [UInt8] { request.body }
    var scheme: RequestScheme { request.scheme }
    func header(_ name: String) -> String? { request.header(name) }
    func queryValue(_ name: String) -> String? { request.queryValue(name) }
    func queryValues(_ name: String) -> [String] { request.queryValues(name) }
    func allQueryParameters() -> [(name: String, value: String)] { request.allQueryParameters() }
    func allHeaders() -> [(name: String, value: String)] { request.allHeaders() }
    var mayCarryControls: Bool { request.mayCarryControls }
    func takeCopy() { copied = true }
    func releaseBody(keeping bytes: Int) {}
}

/// An upstream that answers when the test says so (a deferred reply with no thread).
final class LaterUpstream: UnmatchedRequestHandler, @unchecked Sendable {
    // @unchecked: the test drives it from one task.
    var waiting: [@Sendable (Reply) -> Void] = []
    func reply(to request: StubRequest, done: @escaping @Sendable (Reply) -> Void) { waiting.append(done) }
}

/// `RequestLifecycle` with a fake clock: every phase, every action, a stop and a client leaving
/// in each waiting phase. No sockets, no threads.
@Suite struct RequestLifecycleTests {
    static let ms: UInt64 = 1_000_000
    let stubs: TemporaryStubs
    let catalog: StubCatalog
    let control = StubControl(journalSize: 50)
    let upstream = LaterUpstream()
    let env: LifecycleEnvironment

    /// `GET /users/{id}` with a 200, a 404 and a 300 ms `200-slow`.
    static let userRoute = [
        "app/user/route.json": #"{"method": "GET", "path": "/users/{id}", "variants": {"200-slow": {"delay": {"ms": 300}}}}"#,
        "app/user/200.json": #"{"id": 1}"#,
        "app/user/200-slow.json": #"{"id": 1}"#,
        "app/user/404.json": #"{"error": "none"}"#,
    ]

    init() throws {
        stubs = try TemporaryStubs(RequestLifecycleTests.userRoute.merging([
            "app/feed/route.json": #"{"method": "GET", "path": "/feed"}"#,
            "app/feed/200.events.json": #"[{"data": "a"}, {"data": "b", "after": {"ms": 100}}, {"data": "c", "after": {"ms": 100}}]"#,
        ]) { $1 })
        catalog = try stubs.catalog()
        env = LifecycleEnvironment(responder: StubResponder(control: control, admin: nil, unmatched: upstream), holdCapNs: 10_000 * Self.ms)
    }

    var journal: [RequestRecord] { control.journal(session: nil).map(\.record) }

    func start(_ request: FakeRequest, _ life: inout RequestLifecycle, at offsetMs: UInt64 = 0) -> LifecycleAction {
        life.requestComplete(request, catalog: catalog, env: env, now: request.startNs + offsetMs * Self.ms)
    }

    func resume(_ request: FakeRequest, _ life: inout RequestLifecycle, atMs: UInt64, stopping: Bool = false, gone: Bool = false) -> LifecycleAction {
        life.resumed(request, catalog: catalog, env: env, now: request.startNs + atMs * Self.ms, stopping: stopping, clientGone: gone)
    }

    @Test func aPlainRequestIsAnsweredAtOnceWithThePreparedResponseAndJournaled() {
        let request = FakeRequest("/users/1")
        var life = RequestLifecycle()
        guard case .respond(200, .prepared) = start(request, &life) else { Issue.record("not answered at once"); return }
        guard case .done = life.phase else { Issue.record("\(life.phase)"); return }
        #expect(request.copied, "copied for the journal before planning")
        #expect(journal.map(\.status) == [200])
    }

    @Test func aDelayWaitsUntilItsDeadlineThenAnswers() {
        let request = FakeRequest("/users/1?__variant=200-slow")
        var life = RequestLifecycle()
        guard case .suspend(let until) = start(request, &life) else { Issue.record("no suspend"); return }
        #expect(until == request.startNs + 300 * Self.ms)
        guard case .delayed = life.phase else { Issue.record("\(life.phase)"); return }
        #expect(journal.isEmpty)
        guard case .respond(200, .prepared) = resume(request, &life, atMs: 301) else { Issue.record("no answer"); return }
        #expect(journal.first?.elapsedMs == 301 && journal.first?.delayMs == 300)
    }

    @Test(arguments: [(stopping: true, gone: false), (stopping: false, gone: true)])
    func aDelayedRequestClosesWhenTheServerStopsOrTheClientLeaves(stopping: Bool, gone: Bool) {
        let request = FakeRequest("/users/1?__delay=500")
        var life = RequestLifecycle()
        guard case .suspend = start(request, &life) else { Issue.record("no suspend"); return }
        guard case .close = resume(request, &life, atMs: 10, stopping: stopping, gone: gone) else { Issue.record("not closed"); return }
        #expect(journal.map(\.status) == [0] && journal.first?.clientGone == gone)
    }

    @Test(arguments: [false, true])
    func aHangWaitsForTheHoldCapThenCloses(gone: Bool) {
        let request = FakeRequest("/users/1?__fault=hang")
        var life = RequestLifecycle()
        guard case .suspend(let until) = start(request, &life) else { Issue.record("no suspend"); return }
        #expect(until == request.startNs + env.holdCapNs)
        guard case .close = resume(request, &life, atMs: gone ? 50 : 10_000, gone: gone) else { Issue.record("not closed"); return }
        #expect(journal.first?.fault == .hang && journal.first?.clientGone == gone)
    }

    /// A held request: registered when suspended, planned again when released.
    func held(_ route: String = "/users/1") throws -> (FakeRequest, RequestLifecycle, UInt64) {
        var hold = RouteOverride()
        hold.hold = true
        try control.setOverride(hold, for: catalog.requireRoute(id: "app/user"), session: nil)
        let request = FakeRequest(route)
        var life = RequestLifecycle()
        guard case .suspend(let until) = start(request, &life) else { throw CancellationError() }
        #expect(until == request.startNs + env.holdCapNs)
        life.suspended(ticket: 42, env: env)
        #expect(control.heldCount(routeID: "app/user", session: nil) == 1)
        return (request, life, 42)
    }

    @Test func aReleasedHoldIsPlannedAgainAndAnswered() throws {
        var (request, life, _) = try held()
        let woken = Locked<[UInt64]>([])
        control.setReleaser { tickets in woken.withLock { $0 += tickets } }
        #expect(control.release(routeID: "app/user", session: nil) == 1)
        #expect(woken.withLock { $0 } == [42])
        control.clearOverride(routeID: "app/user", session: nil)
        guard case .respond(200, .prepared) = resume(request, &life, atMs: 20) else { Issue.record("not answered"); return }
        #expect(control.heldCount(routeID: "app/user", session: nil) == 0)
    }

    @Test(arguments: [(atMs: UInt64(10_000), stopping: false), (atMs: UInt64(20), stopping: true)])
    func aHoldThatIsNeverReleasedGetsA503(atMs: UInt64, stopping: Bool) throws {
        var (request, life, _) = try held()
        guard case .respond(503, .bytes(let body, _)) = resume(request, &life, atMs: atMs, stopping: stopping) else { Issue.record("no 503"); return }
        #expect(String(decoding: body, as: UTF8.self).contains(stopping ? "the server is stopping" : "the hold cap passed"))
        #expect(control.heldCount(routeID: "app/user", session: nil) == 0)
        #expect(journal.map(\.status) == [503])
    }

    @Test func aHeldRequestWhoseClientLeftLeavesTheCountAndIsJournaledGone() throws {
        var (request, life, _) = try held()
        guard case .close = resume(request, &life, atMs: 20, gone: true) else { Issue.record("not closed"); return }
        #expect(control.heldCount(routeID: "app/user", session: nil) == 0)
        #expect(journal.first?.clientGone == true && journal.first?.status == 0)
        // The connection's end afterwards changes nothing more.
        life.connectionEnded(request, env: env, now: request.startNs + 30 * Self.ms)
        #expect(journal.count == 1)
    }

    @Test func aConnectionThatEndsWhileHeldLetsTheHoldGo() throws {
        var (request, life, _) = try held()
        life.connectionEnded(request, env: env, now: request.startNs + 30 * Self.ms)
        #expect(control.heldCount(routeID: "app/user", session: nil) == 0)
        #expect(journal.first?.clientGone == true)
    }

    /// An unmatched request goes to the (fake) upstream: deferred, answered when it delivers.
    func deferred() -> (FakeRequest, RequestLifecycle, DeferredBox)? {
        let request = FakeRequest("/nothing/here")
        var life = RequestLifecycle()
        guard case .startDeferred(let work, let box) = start(request, &life), case .callback(let begin) = work else { return nil }
        begin { box.deliver($0) }
        return (request, life, box)
    }

    @Test func aDeferredReplyIsSentWhenItArrives() throws {
        var (request, life, _) = try #require(deferred())
        upstream.waiting.first?(Reply(status: 201, body: Array("made".utf8)))
        guard case .respond(201, .bytes(let body, _)) = resume(request, &life, atMs: 40) else { Issue.record("no answer"); return }
        #expect(body == Array("made".utf8) && journal.first?.status == 201 && journal.first?.proxied == true)
    }

    @Test(arguments: [(stopping: true, gone: false), (stopping: false, gone: true)])
    func aDeferredRequestClosesWhenStoppedOrLeft(stopping: Bool, gone: Bool) throws {
        var (request, life, _) = try #require(deferred())
        guard case .close = resume(request, &life, atMs: 40, stopping: stopping, gone: gone) else { Issue.record("not closed"); return }
        #expect(journal.first?.clientGone == gone)
    }

    @Test func aStreamIsPulledEventByEventAndJournaledWhenFreed() {
        let request = FakeRequest("/feed")
        var life = RequestLifecycle()
        guard case .respond(200, .pulled(nil, let headers)) = start(request, &life) else { Issue.record("no pulled body"); return }
        #expect(!headers.contains { $0.name.lowercased() == "content-length" })
        var buffer = [UInt8](repeating: 0, count: 4096)
        let t0 = request.startNs
        let first = buffer.withUnsafeMutableBytes { life.pull(at: 0, into: PullBuffer($0), now: t0, stopping: false, clientGone: false) }
        #expect(first == .copied(9))
        let early = buffer.withUnsafeMutableBytes { life.pull(at: 9, into: PullBuffer($0), now: t0 + 10 * Self.ms, stopping: false, clientGone: false) }
        #expect(early == .wait(until: t0 + 100 * Self.ms))
        let second = buffer.withUnsafeMutableBytes { life.pull(at: 9, into: PullBuffer($0), now: t0 + 100 * Self.ms, stopping: false, clientGone: false) }
        #expect(second == .copied(9))
        let gone = buffer.withUnsafeMutableBytes { life.pull(at: 18, into: PullBuffer($0), now: t0 + 150 * Self.ms, stopping: false, clientGone: true) }
        #expect(gone == .abort)
        #expect(journal.isEmpty, "a stream is journaled when it ends")
        life.responseFreed(request, env: env, now: t0 + 160 * Self.ms)
        #expect(journal.first?.stream?.eventsSent == 2 && journal.first?.clientGone == true)
    }

    @Test func aStreamCutAfterNEventsResetsAndIsJournaledAsAReset() {
        let request = FakeRequest("/feed?__fault=cut-after=1")
        var life = RequestLifecycle()
        guard case .respond = start(request, &life) else { Issue.record("no answer"); return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let t0 = request.startNs
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 0, into: PullBuffer($0), now: t0, stopping: false, clientGone: false) } == .copied(9))
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 9, into: PullBuffer($0), now: t0, stopping: false, clientGone: false) } == .wait(until: t0 + 20 * Self.ms))
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 9, into: PullBuffer($0), now: t0 + 20 * Self.ms, stopping: false, clientGone: false) } == .reset)
        life.responseFreed(request, env: env, now: t0 + 21 * Self.ms)
        #expect(journal.first?.fault == .reset && journal.first?.stream?.eventsSent == 1 && journal.first?.clientGone == false)
    }

    @Test func aThrottledBodyIsPacedAndAStopAbortsIt() {
        let request = FakeRequest("/users/1?__throttle=10")
        var life = RequestLifecycle()
        guard case .respond(200, .pulled(9, _)) = start(request, &life) else { Issue.record("no pulled body"); return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let t0 = request.startNs
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 0, into: PullBuffer($0), now: t0, stopping: false, clientGone: false) } == .copied(1))
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 1, into: PullBuffer($0), now: t0, stopping: false, clientGone: false) } == .wait(until: t0 + 100 * Self.ms))
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: 1, into: PullBuffer($0), now: t0 + 100 * Self.ms, stopping: true, clientGone: false) } == .abort)
        #expect(journal.map(\.status) == [200], "journaled when queued")
    }

    @Test func aRefusedRequestIsAnsweredAndNotJournaled() {
        var life = RequestLifecycle()
        guard case .respond(400, .bytes) = life.refuse(Reply.error(400, "bad framing")) else { Issue.record("not answered"); return }
        guard case .done = life.phase else { Issue.record("\(life.phase)"); return }
        #expect(journal.isEmpty)
    }
}
