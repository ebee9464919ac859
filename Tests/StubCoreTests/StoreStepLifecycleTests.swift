import Foundation
@testable import StubCore
import StubSystem
import Testing

/// A fleet's store that answers sequence steps when the test says so.
final class SteppingStore: SharedControlState, @unchecked Sendable {
    // @unchecked: the test drives it from one task.
    var waiting: [@Sendable (Int?) -> Void] = []
    var isReachable: Bool { true }
    func start(control: StubControl, stubDirectory: String, routes: Int) {}
    func stop() {}
    func write(_ override: RouteOverride?, routeID: String, scope: Scope) -> Bool { true }
    func reset(_ scope: Scope) -> Bool { true }
    func takeStep(token: String, then: @escaping @Sendable (Int?) -> Void) { waiting.append(then) }
    func perform(_ job: @escaping @Sendable () -> Void) { job() }
    func touched(session: String) {}
    func holdStarted(ticket: UInt64, routeID: String, scope: Scope) {}
    func holdEnded(ticket: UInt64, routeID: String, scope: Scope) {}
    func release(routeID: String, scope: Scope?, count: Int?) -> (released: Int, local: [UInt64])? { nil }
    func heldCount(routeID: String, scope: Scope) -> Int? { nil }
    func journalEntries(scope: Scope?) -> [JSONValue]? { nil }
    func clearJournal(_ scope: Scope) {}
    func health() -> (degraded: Bool, report: JSONValue) { (false, .null) }
    func catalogChanged(ok: Bool, routes: Int) {}
}

/// In a fleet, a request whose plan needs the store's sequence step waits for it suspended (the
/// call is made elsewhere), then is planned again with the step it was handed.
@Suite struct StoreStepLifecycleTests {
    static let ms: UInt64 = 1_000_000
    let stubs: TemporaryStubs
    let catalog: StubCatalog
    let store = SteppingStore()
    let control: StubControl
    let env: LifecycleEnvironment

    init() throws {
        stubs = try TemporaryStubs(RequestLifecycleTests.userRoute)
        catalog = try stubs.catalog()
        control = StubControl(journalSize: 50, sharedState: SharedStateStore(store))
        env = LifecycleEnvironment(responder: StubResponder(control: control, admin: nil), holdCapNs: 10_000 * Self.ms)
        var sequence = RouteOverride()
        sequence.sequence = ["404", "200-slow"]
        try control.setOverride(sequence, for: catalog.requireRoute(id: "app/user"), session: nil)
    }

    /// Starts a request at 0 ms; the action's deadline, and whether its work resumed it.
    func waitForStep(_ request: FakeRequest, _ life: inout RequestLifecycle) -> (until: UInt64, resumed: Locked<Bool>)? {
        guard case .suspendFor(let until, let start) = life.requestComplete(request, catalog: catalog, env: env, now: request.startNs) else {
            return nil
        }
        let resumed = Locked(false)
        start { resumed.withLock { $0 = true } }
        return (until, resumed)
    }

    @Test func theStepIsWaitedForSuspendedThenThePlanUsesIt() throws {
        let request = FakeRequest("/users/1")
        var life = RequestLifecycle()
        let (until, resumed) = try #require(waitForStep(request, &life), "\(life.phase)")
        #expect(until == request.startNs + LifecycleEnvironment.stepWaitNs)
        #expect(store.waiting.count == 1 && !resumed.withLock { $0 }, "asked, not answered yet")
        // Another replica took step 1: this request gets step 2, whose delay counts from its arrival.
        store.waiting[0](2)
        #expect(resumed.withLock { $0 })
        let action = life.resumed(request, catalog: catalog, env: env, now: request.startNs + 5 * Self.ms, stopping: false, clientGone: false)
        guard case .suspend(let delayed) = action else { Issue.record("\(action)"); return }
        #expect(delayed == request.startNs + 300 * Self.ms)
        _ = life.resumed(request, catalog: catalog, env: env, now: delayed, stopping: false, clientGone: false)
        let entry = try #require(control.journal(session: nil).first?.record)
        #expect(entry.variant == "200-slow" && entry.sequenceStep?.step == 2 && store.waiting.count == 1)
    }

    @Test func withoutAnAnswerInTimeTheStepComesFromTheLocalCount() throws {
        let request = FakeRequest("/users/1")
        var life = RequestLifecycle()
        _ = try #require(waitForStep(request, &life))
        let action = life.resumed(request, catalog: catalog, env: env, now: request.startNs + LifecycleEnvironment.stepWaitNs, stopping: false,
                                  clientGone: false)
        guard case .respond(404, _) = action else { Issue.record("\(action)"); return }
        #expect(control.journal(session: nil).first?.record.sequenceStep?.step == 1)
    }

    @Test(arguments: [(stopping: true, gone: false), (stopping: false, gone: true)])
    func aRequestWaitingForItsStepClosesWhenStoppedOrLeft(stopping: Bool, gone: Bool) throws {
        let request = FakeRequest("/users/1")
        var life = RequestLifecycle()
        _ = try #require(waitForStep(request, &life))
        let action = life.resumed(request, catalog: catalog, env: env, now: request.startNs + Self.ms, stopping: stopping, clientGone: gone)
        guard case .close = action else { Issue.record("\(action)"); return }
        let entry = try #require(control.journal(session: nil).first?.record)
        #expect(entry.routeID == "app/user" && entry.clientGone == gone)
    }
}
