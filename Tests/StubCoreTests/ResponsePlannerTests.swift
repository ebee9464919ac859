import StubCore
import Testing

/// An override source with fixed answers, to test precedence without the admin layer.
final class FixedOverrides: OverrideSource {
    let decision: OverrideDecision?
    init(decision: OverrideDecision?) { self.decision = decision }
    func decision(forRoute routeID: String, session: String?, advance: Bool, honorHold: Bool) -> OverrideDecision? { decision }
}

@Suite struct ResponsePlannerTests {
    let stubs: TemporaryStubs
    let catalog: StubCatalog

    init() throws {
        stubs = try TemporaryStubs([
            "app/_service.json": #"{"errorEnvelope": {"error": "{{title}}"}, "delay": {"ms": 50}}"#,
            "app/login/route.json": """
            {"method": "POST", "path": "/login", "default": "401",
             "variants": {
               "200": {"when": {"body": {"email": "jane@example.com", "password": "pw"}}},
               "403-blocked": {"when": {"headers": {"x-client": "blocked"}}, "error": {"title": "Blocked"}, "delay": {"ms": 7}},
               "401": {"error": {"title": "Login failed"}},
               "200-beta": {"when": {"query": {"beta": "*"}}}
             }}
            """,
            "app/login/200.json": #"{"token": "t"}"#,
            "app/login/200-beta.json": #"{"token": "beta"}"#,
            "app/user/route.json": #"{"method": "GET", "path": "/users/{id}", "variants": {"200-two": {"status": 200, "body": {"id": 2}, "when": {"path": {"id": "2"}}}}}"#,
            "app/user/200.json": #"{"id": 1}"#,
        ])
        catalog = try stubs.catalog()
    }

    func plan(_ request: StubRequest, overrides: OverrideDecision? = nil) -> ResponsePlan {
        var r = request
        return ResponsePlanner().plan(&r, catalog: catalog, overrides: FixedOverrides(decision: overrides))
    }

    @Test func whenMatchesFormAndJSONBodies() {
        let form = StubRequest(method: "POST", path: "/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                               body: Array("email=jane%40example.com&password=pw".utf8))
        #expect(plan(form).variantName == "200")
        #expect(plan(form).selection == .when)
        let json = StubRequest(method: "POST", path: "/login", headers: [("Content-Type", "application/json")],
                               body: Array(#"{"password": "pw", "email": "jane@example.com"}"#.utf8))
        #expect(plan(json).variantName == "200")
        let wrong = StubRequest(method: "POST", path: "/login", body: Array(#"{"email": "jane@example.com", "password": "no"}"#.utf8))
        #expect(plan(wrong).variantName == "401")
        #expect(plan(wrong).selection == .default)
        #expect(plan(wrong).status == 401)
    }

    @Test func whenMatchesHeadersCaseInsensitivelyQueryPresenceAndPathValues() {
        #expect(plan(StubRequest(method: "POST", path: "/login", headers: [("X-Client", "blocked")])).variantName == "403-blocked")
        #expect(plan(StubRequest(method: "POST", path: "/login", query: [("beta", "")])).variantName == "200-beta")
        #expect(plan(StubRequest(method: "GET", path: "/users/2")).variantName == "200-two")
        #expect(plan(StubRequest(method: "GET", path: "/users/3")).variantName == "200")
    }

    @Test func firstMatchingWhenWinsInFileOrder() {
        let both = StubRequest(method: "POST", path: "/login", query: [("beta", "1")], headers: [("x-client", "blocked")])
        #expect(plan(both).variantName == "403-blocked")
    }

    @Test func requestControlBeatsOverrideBeatsWhen() {
        let blocked = StubRequest(method: "POST", path: "/login", headers: [("x-client", "blocked")])
        #expect(plan(blocked, overrides: OverrideDecision(variant: "200")).variantName == "200")
        #expect(plan(blocked, overrides: OverrideDecision(variant: "200")).selection == .override)
        #expect(plan(blocked, overrides: OverrideDecision(variant: "200", fromSequence: true)).selection == .sequence)
        var controlled = blocked
        controlled.headers.append(("X-Stub-Variant", "200-beta"))
        #expect(plan(controlled, overrides: OverrideDecision(variant: "200")).variantName == "200-beta")
        #expect(plan(controlled).selection == .request)
        let byQuery = StubRequest(method: "POST", path: "/login", query: [("__variant", "200-beta")])
        #expect(plan(byQuery).variantName == "200-beta")
    }

    @Test func aRequestThatPicksItsVariantDoesNotUseUpASequenceStep() throws {
        let control = StubControl(journalSize: 0)
        let route = try #require(catalog.route(id: "app/user")?.route)
        try control.setOverride(RouteOverride(sequence: ["200-two", "200"]), for: route, session: nil)
        func next(_ headers: [(name: String, value: String)] = []) -> String? {
            var request = StubRequest(method: "GET", path: "/users/9", headers: headers)
            return ResponsePlanner().plan(&request, catalog: catalog, overrides: control).variantName
        }
        #expect(next([("X-Stub-Variant", "200")]) == "200")
        #expect(next([("X-Stub-Variant", "nope")]) == nil)
        #expect(next() == "200-two")
        #expect(next() == "200")
        #expect(control.override(routeID: "app/user", session: nil)?.remaining == [])
    }

    @Test func unknownVariantIsA400ListingTheVariants() throws {
        let p = plan(StubRequest(method: "POST", path: "/login", headers: [("X-Stub-Variant", "500")]))
        guard case .reply(let reply) = p.response else { Issue.record("expected a reply"); return }
        #expect(reply.status == 400)
        let body = try JSONParser.parse(reply.body)
        #expect(body["variants"] == .array(["200", "403-blocked", "401", "200-beta"].map { .string($0) }))
    }

    @Test func delayPrecedenceRequestThenOverrideThenVariantThenService() {
        let blocked = StubRequest(method: "POST", path: "/login", headers: [("x-client", "blocked")])
        #expect(plan(blocked).delayMs == 7)
        #expect(plan(StubRequest(method: "POST", path: "/login")).delayMs == 50)
        #expect(plan(blocked, overrides: OverrideDecision(delay: .fixed(ms: 900))).delayMs == 900)
        var controlled = blocked
        controlled.query.append(("__delay", "1500"))
        #expect(plan(controlled, overrides: OverrideDecision(delay: .fixed(ms: 900))).delayMs == 1500)
        var base = blocked
        #expect(ResponsePlanner(baseDelayMs: 100).plan(&base, catalog: catalog).delayMs == 107)
    }

    @Test func onlyControlPrefixesMakeARequestLookForControls() {
        #expect(StubRequest(method: "GET", path: "/", headers: [("x-STUB-delay", "1")]).mayCarryControls)
        #expect(StubRequest(method: "GET", path: "/", query: [("__fault", "reset")]).mayCarryControls)
        #expect(!StubRequest(method: "GET", path: "/", query: [("_x", "1")], headers: [("X-Stubborn", "1"), ("Accept", "*/*")]).mayCarryControls)
        // Without a control prefix, the controls are not even looked up.
        #expect(plan(StubRequest(method: "POST", path: "/login", headers: [("Delay", "5")])).delayMs == 50)
    }

    @Test func controlValuesMayCarrySpacesAndTabs() {
        #expect(plan(StubRequest(method: "POST", path: "/login", headers: [("X-Stub-Delay", " 25\t")])).delayMs == 25)
        #expect(plan(StubRequest(method: "POST", path: "/login", headers: [("X-Stub-Delay", "\t\t")])).status == 400)
        #expect(plan(StubRequest(method: "POST", path: "/login", headers: [("X-Stub-Fault", "reset ")])).fault == .reset)
    }

    @Test func faultPrecedenceAndStatus() {
        let request = StubRequest(method: "GET", path: "/users/1", headers: [("X-Stub-Fault", "reset")])
        #expect(plan(request).fault == .reset)
        #expect(plan(request).status == 0)
        #expect(plan(StubRequest(method: "GET", path: "/users/1"), overrides: OverrideDecision(fault: .hang)).fault == .hang)
        var badRequest = StubRequest(method: "GET", path: "/users/1", query: [("__fault", "boom"), ("a", "1")])
        let bad = ResponsePlanner().plan(&badRequest, catalog: catalog)
        #expect(bad.status == 400)
        #expect(badRequest.query.map(\.name) == ["a"], "a refused control is still not logged as the client's own")
    }

    @Test func throttleComesFromTheRequestElseTheFiles() throws {
        let stubs = try TemporaryStubs([
            "s/_service.json": #"{"throttle": {"bytesPerSecond": 100}}"#,
            "s/r/route.json": #"{"method": "GET", "path": "/r", "variants": {"201": {"throttle": {"bytesPerSecond": 7}}}}"#,
            "s/r/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        func rate(_ request: StubRequest) -> Int? {
            var r = request
            return ResponsePlanner().plan(&r, catalog: catalog).throttleBytesPerSecond
        }
        #expect(rate(StubRequest(method: "GET", path: "/r")) == 100)
        #expect(rate(StubRequest(method: "GET", path: "/r", headers: [("X-Stub-Variant", "201")])) == 7)
        #expect(rate(StubRequest(method: "GET", path: "/r", query: [("__throttle", "5000")])) == 5000)
        #expect(rate(StubRequest(method: "GET", path: "/r", query: [("__throttle", "5000")], headers: [("X-Stub-Throttle", "9")])) == 9)
    }

    @Test func controlQueryParametersAreStrippedBeforeMatchingAndJournaling() {
        var request = StubRequest(method: "POST", path: "/login", query: [("__delay", "5"), ("beta", "1"), ("__variant", "401")])
        let p = ResponsePlanner().plan(&request, catalog: catalog)
        #expect(request.query.map(\.name) == ["beta"])
        #expect(p.variantName == "401")
        #expect(p.delayMs == 5)
    }

    @Test func lognormalAndUniformDelaysStayInBounds() {
        var rng = SystemRandomNumberGenerator()
        let uniform = (0..<1000).map { _ in DelaySpec.uniform(min: 100, max: 200).sample(using: &rng) }
        #expect(uniform.allSatisfy { (100...200).contains($0) })
        #expect(Set(uniform).count > 50)
        let lognormal = (0..<2001).map { _ in DelaySpec.lognormal(median: 300, sigma: 0.5, max: 1000).sample(using: &rng) }.sorted()
        #expect(lognormal.allSatisfy { (0...1000).contains($0) })
        #expect((240...360).contains(lognormal[1000]), "median \(lognormal[1000])")
    }

    /// A stub file may ask for any median and sigma: a draw beyond `Int` (or 0 × ∞) is capped,
    /// where converting it whole stopped the server at its first request.
    @Test func aLognormalDelayBeyondAnyIntIsCapped() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            #expect(DelaySpec.lognormal(median: 1e19, sigma: 1, max: 5000).sample(using: &rng) == 5000)
            #expect(DelaySpec.lognormal(median: 0, sigma: 1e300, max: 5000).sample(using: &rng) == 0)
            #expect((0...5000).contains(DelaySpec.lognormal(median: 1e300, sigma: 1e300, max: 5000).sample(using: &rng)))
        }
    }
}
