import StubCore
import Testing

@Suite struct RouteMatcherTests {
    let stubs: TemporaryStubs
    let catalog: StubCatalog

    init() throws {
        stubs = try TemporaryStubs([
            "u/byID/route.json": #"{"method": "GET", "path": "/users/{id}"}"#, "u/byID/200.json": "{}",
            "u/me/route.json": #"{"method": "GET", "path": "/users/me"}"#, "u/me/200.json": "{}",
            "u/del/route.json": #"{"method": "DELETE", "path": "/users/{userID}"}"#, "u/del/204.json": "{}",
            "u/posts/route.json": #"{"method": "GET", "path": "/users/{id}/posts/{post}"}"#, "u/posts/200.json": "{}",
            "u/latest/route.json": #"{"method": "GET", "path": "/users/{id}/posts/latest"}"#, "u/latest/200.json": "{}",
        ])
        catalog = try stubs.catalog()
    }

    func routeID(_ method: String, _ path: String) -> String? {
        if case .route(let i, _) = catalog.matcher.match(method: method, path: path) { return catalog.routes[i].id }
        return nil
    }

    @Test func literalSegmentsBeatTemplates() {
        #expect(routeID("GET", "/users/me") == "u/me")
        #expect(routeID("GET", "/users/7") == "u/byID")
        #expect(routeID("GET", "/users/7/posts/latest") == "u/latest")
        #expect(routeID("GET", "/users/7/posts/9") == "u/posts")
    }

    @Test func capturesParametersAndIgnoresTrailingSlash() {
        #expect(catalog.matcher.match(method: "GET", path: "/users/7/posts/9/") == .route(index: catalog.route(id: "u/posts")!.index, parameters: ["id": "7", "post": "9"]))
    }

    @Test func methodDecidesBeforeSpecificity() {
        #expect(routeID("DELETE", "/users/me") == "u/del")
    }

    @Test func headIsAnsweredByGetRoutes() {
        #expect(routeID("HEAD", "/users/me") == "u/me")
    }

    @Test func otherMethodsOnAKnownPathAreNotAllowed() {
        #expect(catalog.matcher.match(method: "POST", path: "/users/1") == .methodNotAllowed(allowed: ["DELETE", "GET", "HEAD"]))
        #expect(catalog.matcher.match(method: "GET", path: "/nothing/here") == .notFound)
    }

    @Test func nearMissesPutTheClosestRouteFirst() {
        let misses = catalog.matcher.nearMisses(method: "GET", path: "/user/7/posts/9", in: catalog.routes)
        #expect(misses.first?.id == "u/posts")
        #expect(misses.count == 3)
    }
}
