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

    /// The id of the route a GET of `path` finds in `catalog`, by lookup.
    static func getRouteID(_ catalog: StubCatalog, _ path: String) -> String? {
        if case .route(let i) = catalog.matcher.route(method: "GET", path: path) { return catalog.routes[i].id }
        return nil
    }

    func routeID(_ method: String, _ path: String) -> String? {
        if case .route(let i, _) = catalog.matcher.match(method: method, path: path) { return catalog.routes[i].id }
        return nil
    }

    /// Literal children are found by hash in one table for the whole tree, at any fan-out.
    @Test(arguments: [3, 12]) func literalSiblingsAreFoundAtAnyFanOut(count: Int) throws {
        var files: [String: String] = ["s/any/route.json": #"{"method": "GET", "path": "/s/{x}"}"#, "s/any/200.json": "{}"]
        for i in 0..<count {
            files["s/n\(i)/route.json"] = #"{"method": "GET", "path": "/s/name\#(i)"}"#
            files["s/n\(i)/200.json"] = "{}"
        }
        let stubs = try TemporaryStubs(files)
        let catalog = try stubs.catalog()
        func id(_ path: String) -> String? { RouteMatcherTests.getRouteID(catalog, path) }
        for i in 0..<count { #expect(id("/s/name\(i)") == "s/n\(i)") }
        #expect(id("/s/name\(count)") == "s/any")
        #expect(id("/s/nam") == "s/any")
        #expect(id("/s/name1x") == "s/any")
    }

    /// One table holds every literal edge: the same segment below many parents leads to each
    /// parent's own child, not to the first one stored under that segment's hash.
    @Test func sameSegmentBelowManyParentsFindsEachParentsChild() throws {
        var files: [String: String] = [:]
        for i in 0..<300 {
            files["g/list\(i)/route.json"] = #"{"method": "GET", "path": "/g\#(i)/items"}"#
            files["g/list\(i)/200.json"] = "{}"
            files["g/one\(i)/route.json"] = #"{"method": "DELETE", "path": "/g\#(i)/items/{id}"}"#
            files["g/one\(i)/204.json"] = "{}"
        }
        let stubs = try TemporaryStubs(files)
        let catalog = try stubs.catalog()
        func lookup(_ method: String, _ path: String) -> String? {
            switch catalog.matcher.route(method: method, path: path) {
            case .route(let i): return catalog.routes[i].id
            case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
            case .notFound: return nil
            }
        }
        for i in [0, 1, 150, 299] {
            #expect(lookup("GET", "/g\(i)/items") == "g/list\(i)")
            #expect(lookup("HEAD", "/g\(i)/items") == "g/list\(i)")
            #expect(lookup("DELETE", "/g\(i)/items/7") == "g/one\(i)")
            #expect(lookup("POST", "/g\(i)/items") == "405 GET,HEAD")
        }
        #expect(lookup("GET", "/g300/items") == nil)
        #expect(lookup("GET", "/g1/item") == nil)
    }

    /// Segments longer than the 16 bytes a node's summary holds are matched whole: two alike in
    /// length and in those 16 bytes are told apart, and neither matches a prefix.
    @Test func longSegmentsAlikeInTheirFirstBytesAreToldApart() throws {
        let stubs = try TemporaryStubs([
            "l/a/route.json": #"{"method": "GET", "path": "/long/abcdefghijklmnopqrstuvwxyz-1"}"#, "l/a/200.json": "{}",
            "l/b/route.json": #"{"method": "GET", "path": "/long/abcdefghijklmnopqrstuvwxyz-2"}"#, "l/b/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        func id(_ path: String) -> String? { RouteMatcherTests.getRouteID(catalog, path) }
        #expect(id("/long/abcdefghijklmnopqrstuvwxyz-1") == "l/a")
        #expect(id("/long/abcdefghijklmnopqrstuvwxyz-2") == "l/b")
        #expect(id("/long/abcdefghijklmnopqrstuvwxyz-3") == nil)
        #expect(id("/long/abcdefghijklmnop") == nil)
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

    /// A path that ends at a parameter finds the first route there in its parent's summary; any
    /// other method, or a path that goes on, still reaches the parameter node itself.
    @Test func aPathEndingAtAParameterFindsEachMethodsRoute() {
        #expect(routeID("GET", "/users/7") == "u/byID")
        #expect(routeID("DELETE", "/users/7") == "u/del")
        #expect(routeID("HEAD", "/users/7") == "u/byID")
        #expect(routeID("GET", "/users/7//") == "u/byID")
        #expect(routeID("GET", "/users/7/posts") == nil)
        #expect(routeID("GET", "/users/7/posts/9") == "u/posts")
    }

    /// A lookup cuts the path once and asks ahead for the first eight literal steps: a deeper
    /// template, an escaped segment (decoded before it is looked up, after which nothing is asked
    /// ahead) and repeated slashes are still found.
    @Test func deepAndEscapedPathsAreFound() throws {
        let deep = "/a/b/c/d/e/f/g/h/i/j/{id}"
        let stubs = try TemporaryStubs([
            "d/deep/route.json": #"{"method": "GET", "path": "\#(deep)"}"#, "d/deep/200.json": "{}",
            "d/cafe/route.json": #"{"method": "GET", "path": "/x/café/items"}"#, "d/cafe/200.json": "{}",
            "d/any/route.json": #"{"method": "GET", "path": "/x/{name}/items"}"#, "d/any/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        func id(_ path: String) -> String? { RouteMatcherTests.getRouteID(catalog, path) }
        #expect(id("/a/b/c/d/e/f/g/h/i/j/7") == "d/deep")
        #expect(id("//a/b//c/d/e/f/g/h/i/j/7/") == "d/deep")
        #expect(id("/a/b/c/d/e/f/g/h/i/k/7") == nil)
        #expect(id("/x/caf%C3%A9/items") == "d/cafe")
        #expect(id("/x/cafe/items") == "d/any")
        #expect(id("/x/caf%C3%A9") == nil)
        #expect(id("x/caf%C3%A9/items") == "d/cafe")
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

    /// 10,000 routes, half with a parameter: every lookup finds its own route, literals still beat
    /// parameters, and a 404 with a huge segment still names close routes.
    @Test func aLargeTableMatchesEveryRouteAndBoundsNearMisses() throws {
        var routes: [Route] = []
        for i in 0..<5000 {
            for (name, path) in [("r\(i)", "/r\(i)/items"), ("p\(i)", "/p\(i)/items/{id}")] {
                routes.append(Route(id: "big/\(name)", service: "big", name: name, method: "GET", template: PathTemplate(path),
                                    variants: [Variant(name: "200", status: 200, headers: [], body: [])], defaultIndex: 0))
            }
        }
        routes.append(Route(id: "big/p7-latest", service: "big", name: "p7-latest", method: "GET", template: PathTemplate("/p7/items/latest"),
                            variants: [Variant(name: "200", status: 200, headers: [], body: [])], defaultIndex: 0))
        let big = StubCatalog(directory: "/big", routes: routes)
        for i in stride(from: 0, to: 5000, by: 97) {
            guard case .route(let r, _) = big.matcher.match(method: "GET", path: "/r\(i)/items") else { Issue.record("no route for r\(i)"); continue }
            #expect(big.routes[r].id == "big/r\(i)")
            #expect(big.matcher.match(method: "GET", path: "/p\(i)/items/x\(i)") == .route(index: 2 * i + 1, parameters: ["id": "x\(i)"]))
        }
        #expect(big.matcher.match(method: "GET", path: "/p7/items/latest") == .route(index: 10_000, parameters: [:]))
        #expect(big.matcher.match(method: "GET", path: "/p7/items") == .notFound)
        let huge = "/r4999/" + String(repeating: "a", count: 1000)
        let misses = big.matcher.nearMisses(method: "GET", path: huge, in: big.routes)
        #expect(misses.first?.id == "big/r4999")
        #expect(misses.count == 3)
    }
}
