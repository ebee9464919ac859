import Foundation
@testable import StubCore
import Testing
import StubSystem

/// The admin API and the request policy through the core's one entry point, with an in-memory
/// host: no sockets, no libmicrohttpd.
final class InMemoryHost: AdminHost, @unchecked Sendable {
    // @unchecked: the tests touch `catalog` and `reloads` from one task at a time.
    var catalog: StubCatalog
    var next: Result<StubCatalog, StubLoadFailure>?
    var reloads = 0

    init(_ catalog: StubCatalog) { self.catalog = catalog }

    var currentCatalog: StubCatalog { catalog }
    var health: HealthReport { HealthReport(loadedAt: catalog.loadedAt) }

    func reloadNow() -> Result<StubCatalog, StubLoadFailure> {
        reloads += 1
        let result = next ?? .success(catalog)
        if case .success(let c) = result { catalog = c }
        return result
    }
}

/// A logger that keeps what it is given.
final class KeptLog: RequestLogger, @unchecked Sendable {
    // @unchecked: guarded by the lock.
    let records = NSLock()
    var kept: [RequestRecord] = []
    func log(_ record: RequestRecord) { records.lock(); kept.append(record); records.unlock() }
}

@Suite struct StubResponderTests {
    let stubs: TemporaryStubs
    let host: InMemoryHost
    let control = StubControl(journalSize: 10)

    init() throws {
        stubs = try TemporaryStubs([
            "app/user/route.json": #"{"method": "GET", "path": "/users/{id}"}"#,
            "app/user/200.json": #"{"id": 1}"#,
            "app/user/500.json": #"{"error": "boom"}"#,
        ])
        host = InMemoryHost(try stubs.catalog())
    }

    func responder(token: String? = nil, admin: Bool = true, logger: KeptLog? = nil) -> StubResponder {
        StubResponder(control: control, admin: admin ? AdminAPI(control: control, host: host, token: token, version: "test") : nil,
                      logger: logger)
    }

    /// Plans and completes a request, as the transport does.
    @discardableResult
    func send(_ r: StubResponder, _ request: StubRequest) -> ResponsePlan {
        var plan = r.respond(to: request, catalog: host.catalog)
        if case .deferred(let deferred) = plan.response { plan.status = StubResponderTests.wait(for: deferred).status }
        r.completed(plan, request: request, status: plan.status, fault: nil, elapsedMs: 1, bodyBytes: request.body.count)
        return plan
    }

    /// The reply a deferred plan makes, waited for as the transport would.
    static func wait(for deferred: DeferredReply) -> Reply {
        switch deferred.work {
        case .blocking(let make): return make()
        case .callback(let start):
            let box = Locked<Reply?>(nil)
            let done = DispatchSemaphore(value: 0)
            start { reply in box.withLock { $0 = reply }; done.signal() }
            done.wait()
            return box.withLock { $0 } ?? Reply(status: 0)
        }
    }

    func reply(_ plan: ResponsePlan) throws -> [String: Any] {
        guard case .reply(let reply) = plan.response else { throw CancellationError() }
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
    }

    @Test func adminCallsAreAnsweredByTheCoreAndNotJournaled() throws {
        let r = responder()
        let health = send(r, StubRequest(method: "GET", path: "/__stubd/health"))
        #expect(health.status == 200)
        #expect(try reply(health)["status"] as? String == "ok")
        #expect(!health.journaled)
        send(r, StubRequest(method: "GET", path: "/users/1"))
        #expect(control.journal(session: nil).map(\.record.request.path) == ["/users/1"])
    }

    @Test func theSessionHeaderScopesOverridesAndTheJournal() throws {
        let r = responder()
        let put = send(r, StubRequest(method: "PUT", path: "/__stubd/routes/app/user", headers: [("X-Stub-Session", "a")],
                                      body: Array(#"{"variant": "500"}"#.utf8)))
        #expect(put.status == 200)
        #expect(send(r, StubRequest(method: "GET", path: "/users/1", headers: [("x-stub-session", "a")])).status == 500)
        #expect(send(r, StubRequest(method: "GET", path: "/users/1")).status == 200)
        #expect(control.journal(session: "a").count == 1)
        #expect(control.journal(session: nil).count == 1)
        let count = send(r, StubRequest(method: "GET", path: "/__stubd/journal/count", headers: [("X-Stub-Session", "a")]))
        #expect(try reply(count)["count"] as? Int == 1)
    }

    @Test func reloadIsDeferredSoItRunsOffTheServingThreads() throws {
        let r = responder()
        let plan = r.respond(to: StubRequest(method: "POST", path: "/__stubd/reload"), catalog: host.catalog)
        guard case .deferred(let work) = plan.response, case .blocking(let make) = work.work else { Issue.record("expected a blocking deferred reply"); return }
        #expect(host.reloads == 0)
        #expect(make().status == 200)
        #expect(host.reloads == 1)
        host.next = .failure(StubLoadFailure(problems: [StubProblem(file: "app/user/route.json", location: .path("method"), message: "expected a method")]))
        let failed = make()
        #expect(failed.status == 422)
        #expect(String(decoding: failed.body, as: UTF8.self).contains("app/user/route.json: method: expected a method"))
    }

    @Test func theTokenGuardsEveryCallButHealthAndIsCheckedBeforeAReload() throws {
        let r = responder(token: "s3cret")
        #expect(send(r, StubRequest(method: "GET", path: "/__stubd/health")).status == 200)
        let refused = r.respond(to: StubRequest(method: "POST", path: "/__stubd/reload"), catalog: host.catalog)
        #expect(refused.status == 401)
        #expect(host.reloads == 0)
        #expect(send(r, StubRequest(method: "GET", path: "/__stubd/routes", headers: [("Authorization", "Bearer s3cret")])).status == 200)
    }

    @Test func withTheAdminAPIOffItsPrefixIsAnOrdinaryUnmatchedPath() throws {
        let r = responder(admin: false)
        let plan = send(r, StubRequest(method: "GET", path: "/__stubd/health"))
        #expect(plan.status == 404)
        #expect(plan.journaled)
        #expect(control.journal(session: nil).count == 1)
    }

    @Test func theJournalAndTheLogGetOneCopyWithoutControlParameters() throws {
        let log = KeptLog()
        let r = responder(logger: log)
        send(r, StubRequest(method: "GET", path: "/users/1", query: [("__variant", "500"), ("page", "2")]))
        send(r, StubRequest(method: "GET", path: "/__stubd/health"))
        #expect(log.kept.map(\.request.path) == ["/users/1", "/__stubd/health"])
        #expect(log.kept.first?.status == 500)
        let journaled = try #require(control.journal(session: nil).first?.record)
        #expect(journaled.request.query.map(\.name) == ["page"])
        #expect(journaled.variant == "500")
    }
}
