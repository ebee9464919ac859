import Foundation
@testable import StubCore
import Testing

/// Records keep the plan instead of copying its fields, and a control with no override skips its
/// lock: each shortcut must answer exactly what the long way answers.
@Suite struct PlanRecordTests {
    let stubs: TemporaryStubs
    let catalog: StubCatalog

    init() throws {
        stubs = try TemporaryStubs([
            "app/user/route.json": """
            {"method": "GET", "path": "/users/{id}", "default": "200",
             "variants": {"200-two": {"status": 200, "body": {"id": 2}, "when": {"path": {"id": "2"}}},
                          "200-slow": {"delay": {"ms": 40}, "body": {"slow": true}},
                          "200-echo": {"template": true, "body": {"id": "{{path.id}}"}}}}
            """,
            "app/user/200.json": #"{"id": 1}"#,
        ])
        catalog = try stubs.catalog()
    }

    func plan(_ request: StubRequest, baseDelayMs: Int = 0) -> ResponsePlan {
        var r = request
        return ResponsePlanner(baseDelayMs: baseDelayMs).plan(&r, catalog: catalog)
    }

    func key(_ variant: String) throws -> Int {
        let route = try #require(catalog.route(id: "app/user"))
        return catalog.variantKey(route: route.index, variant: try #require(route.route.variantIndex(named: variant)))
    }

    /// The plan of a variant chosen by `when` against the plan for a request that names the same
    /// variant: everything but why must agree.
    @Test func aPlanChosenByWhenSaysWhatANamedOneSays() throws {
        let byWhen = plan(StubRequest(method: "GET", path: "/users/2"))
        let named = plan(StubRequest(method: "GET", path: "/users/2", headers: [("X-Stub-Variant", "200-two")]))
        #expect(byWhen.selection == .when && named.selection == .request)
        #expect(byWhen.variantName == "200-two" && named.variantName == "200-two")
        #expect(byWhen.routeID == named.routeID && byWhen.route === named.route)
        #expect(byWhen.status == named.status && byWhen.delayMs == named.delayMs && byWhen.fault == named.fault)
        #expect(byWhen.throttleBytesPerSecond == named.throttleBytesPerSecond && byWhen.renderedBody == nil && named.renderedBody == nil)
        guard case .variant(let a, let keyA) = byWhen.response, case .variant(let b, let keyB) = named.response else {
            Issue.record("not a variant")
            return
        }
        let expected = try key("200-two")
        #expect(a === b && keyA == keyB && keyA == expected)
    }

    @Test func aBaseDelayAndATemplateArePlanned() {
        #expect(plan(StubRequest(method: "GET", path: "/users/2"), baseDelayMs: 30).delayMs == 30)
        #expect(plan(StubRequest(method: "GET", path: "/users/2")).delayMs == 0)
        let echo = plan(StubRequest(method: "GET", path: "/users/7", headers: [("X-Stub-Variant", "200-echo")]))
        #expect(echo.renderedBody.map { String(decoding: $0, as: UTF8.self).contains("7") } == true)
    }

    /// A session written on one request's plan must not show on the next request's.
    @Test func aSessionOnOneRequestDoesNotShowOnTheNext() {
        let responder = StubResponder(control: StubControl(journalSize: 0), admin: nil)
        let first = responder.respond(to: StubRequest(method: "GET", path: "/users/2", headers: [("X-Stub-Session", "s1")]), catalog: catalog)
        let second = responder.respond(to: StubRequest(method: "GET", path: "/users/2"), catalog: catalog)
        #expect(first.session == "s1" && first.variantName == "200-two")
        #expect(second.session == nil && second.variantName == "200-two")
    }

    @Test func aRecordKeepsThePlanWithoutItsBody() {
        let echo = plan(StubRequest(method: "GET", path: "/users/7", headers: [("X-Stub-Variant", "200-echo")]))
        let kept = echo.keptByRecord
        #expect(echo.renderedBody != nil && kept.renderedBody == nil)
        #expect(kept.variantName == "200-echo" && kept.routeID == "app/user" && kept.selection == .request)
        guard case .reply(let reply) = kept.response else {
            Issue.record("the kept plan still points at its variant")
            return
        }
        #expect(reply.body.isEmpty)
        let plain = plan(StubRequest(method: "GET", path: "/users/2"))
        guard case .variant = plain.keptByRecord.response else {
            Issue.record("a plain plan was not kept as it is")
            return
        }
    }

    @Test func aRecordReadsWhatThePlanAndTheOutcomeSay() {
        var plan = plan(StubRequest(method: "GET", path: "/users/2"))
        plan.session = "s1"
        let outcome = RequestRecord.Outcome(status: 200, fault: nil, elapsedMs: 1.5, bodyBytes: 0, stream: (3, true), clientGone: false,
                                            receivedAt: Date())
        let record = RequestRecord(snapshot: StubRequest(method: "GET", path: "/users/2"), plan: plan, outcome: outcome)
        #expect(record.variant == "200-two" && record.routeID == "app/user" && record.selection == "when" && record.session == "s1")
        #expect(record.status == 200 && record.elapsedMs == 1.5 && record.stream?.eventsSent == 3 && record.clientGone)
        var copy = record
        copy.variant = "other"
        copy.session = nil
        #expect(record.variant == "200-two" && record.session == "s1")
        #expect(copy.variant == "other" && copy.session == nil)
    }

    /// The control answers most requests without its lock while no override exists; adding,
    /// clearing, resetting and adopting a fleet's overrides must each be seen at once.
    @Test func overridesAreSeenAsSoonAsTheyAreSetAndGoneAsSoonAsCleared() throws {
        let control = StubControl(journalSize: 0)
        let route = try #require(catalog.route(id: "app/user")).route
        #expect(control.decision(forRoute: route.id, session: nil, advance: true) == nil)
        try control.setOverride(RouteOverride(variant: "200-two"), for: route, session: nil)
        #expect(control.decision(forRoute: route.id, session: nil, advance: true)?.variant == "200-two")
        control.clearOverride(routeID: route.id, session: nil)
        #expect(control.decision(forRoute: route.id, session: nil, advance: true) == nil)
        try control.setOverride(RouteOverride(variant: "200-two"), for: route, session: "s1")
        #expect(control.decision(forRoute: route.id, session: "s1", advance: true)?.variant == "200-two")
        control.reset(session: "s1")
        #expect(control.decision(forRoute: route.id, session: "s1", advance: true) == nil)
        control.adoptShared([.global: [route.id: RouteOverride(variant: "200")]])
        #expect(control.decision(forRoute: route.id, session: nil, advance: true)?.variant == "200")
        control.adoptShared([:])
        #expect(control.decision(forRoute: route.id, session: nil, advance: true) == nil)
    }
}
