import Foundation
import StubCore
import Testing

@Suite struct StubLoaderTests {
    @Test func loadsTheShippedStubs() throws {
        let catalog = try StubLoader.load(directory: ShippedStubs.url.path).get()
        let paths = catalog.routes.map { "\($0.method) \($0.fullPath)" }
        #expect(paths.contains("GET /api/v1/users/{id}"))
        #expect(paths.contains("POST /api/chat.postMessage"))
        #expect(paths.contains("GET /api/v2/items"))
        let user = try #require(catalog.route(id: "app/user")?.route)
        #expect(user.defaultVariant.name == "200")
        #expect(user.variants.map(\.name).last == "404")
    }

    @Test func bodyFileNamesGiveStatusVariantAndContentType() throws {
        let stubs = try TemporaryStubs([
            "svc/_service.json": #"{"basePath": "/v1", "headers": {"X-Service": "svc"}}"#,
            "svc/thing/route.json": #"{"method": "get", "path": "/things/{id}", "headers": {"X-Route": "r"}}"#,
            "svc/thing/200.json": #"{"ok": true}"#,
            "svc/thing/200-empty.json": "[]",
            "svc/thing/429-rate-limited.txt": "slow down",
        ])
        let route = try #require(try stubs.catalog().routes.first)
        #expect(route.method == "GET")
        #expect(route.fullPath == "/v1/things/{id}")
        #expect(route.variants.map(\.name) == ["200", "200-empty", "429-rate-limited"])
        #expect(route.defaultVariant.name == "200")
        let limited = route.variants[2]
        #expect(limited.status == 429)
        #expect(limited.body == Array("slow down".utf8))
        #expect(limited.headers.value(of: "content-type") == "text/plain; charset=utf-8")
        #expect(limited.headers.value(of: "X-Service") == "svc")
        #expect(route.variants[0].headers.value(of: "Content-Type") == "application/json; charset=utf-8")
        #expect(route.variants[0].headers.value(of: "X-Route") == "r")
    }

    @Test func rendersErrorsThroughTheServiceEnvelope() throws {
        let stubs = try TemporaryStubs([
            "app/_service.json": #"{"errorEnvelope": {"data": null, "error": {"title": "{{ title }}", "message": "{{message}}", "status": "{{status}}", "text": "HTTP {{status}}: {{title}}"}}}"#,
            "app/login/route.json": #"{"method": "GET", "path": "/login", "variants": {"401": {"error": {"title": "Login failed", "message": "Wrong password"}}}}"#,
            "slack/_service.json": #"{"errorEnvelope": {"ok": false, "error": "{{code}}"}}"#,
            "slack/post/route.json": #"{"method": "POST", "path": "/post", "variants": {"invalid_auth": {"status": 200, "error": {"code": "invalid_auth"}, "headers": {"X-Slack": "1"}}}}"#,
        ])
        let catalog = try stubs.catalog()
        let login = try #require(catalog.route(id: "app/login")?.route.variants.first)
        #expect(login.status == 401)
        #expect(try JSONParser.parse(login.body) == JSONParser.parse(#"{"data": null, "error": {"title": "Login failed", "message": "Wrong password", "status": 401, "text": "HTTP 401: Login failed"}}"#))
        let slack = try #require(catalog.route(id: "slack/post")?.route.variants.first)
        #expect(slack.status == 200)
        #expect(try JSONParser.parse(slack.body) == JSONParser.parse(#"{"ok": false, "error": "invalid_auth"}"#))
        #expect(slack.headers.value(of: "X-Slack") == "1")
    }

    @Test func aBodyFileOverTheLimitIsRefusedByNameNotRead() throws {
        let stubs = try TemporaryStubs(["app/a/route.json": #"{"method": "GET", "path": "/a"}"#, "app/a/500.json": "{}", "app/a/200.json": "{}"])
        // Sparse: 65 MiB on paper, nothing on disk; reading it whole would cost 65 MiB (and 1 GiB for 1 GiB).
        let big = stubs.url.appendingPathComponent("app/a/200.json").path
        #expect(truncate(big, 65 << 20) == 0)
        #expect(stubs.problems() == ["app/a/200.json: is 68157440 bytes, over the limit of 67108864 bytes"])
    }

    @Test func reportsATypoABrokenFileAndADuplicateTogether() throws {
        let stubs = try TemporaryStubs([
            "app/_service.json": #"{"basePath": "/api"}"#,
            "app/a/route.json": #"{"method": "GET", "path": "/users", "varaints": {}}"#,
            "app/a/200.json": "{}",
            "app/b/route.json": #"{"method": "GET", "path": "/items"}"#,
            "app/b/200.json": "{\n  \"id\": 1,\n  \"name\": \"x\"\n  \"oops\": 2\n}",
            "app/c/route.json": #"{"method": "GET", "path": "/users"}"#,
            "app/c/200.json": "{}",
        ])
        let problems = stubs.problems()
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains(#"app/a/route.json: varaints: unknown key; did you mean "variants"? expected one of method, path, headers, default, variants, delay, throttle, description, operation, kind, etag, lastModified, websocket, collection"#))
        #expect(problems.contains("app/b/200.json:4:3: not valid JSON: expected ',' or '}', found '\"'"))
        #expect(problems.contains { $0.hasPrefix("app/c/route.json: (top level): GET /api/users is defined twice: in app/a/ and in app/c/") })
    }

    /// Two routes repeat each other when method and path agree with parameters renamed; a literal
    /// and a parameter in the same place, or another method, do not.
    @Test func duplicatesCompareTheTemplatesShape() throws {
        let stubs = try TemporaryStubs([
            "s/a/route.json": #"{"method": "GET", "path": "/users/{id}"}"#, "s/a/200.json": "{}",
            "s/b/route.json": #"{"method": "GET", "path": "/users/{userID}"}"#, "s/b/200.json": "{}",
            "s/c/route.json": #"{"method": "GET", "path": "/users/me"}"#, "s/c/200.json": "{}",
            "s/d/route.json": #"{"method": "DELETE", "path": "/users/{id}"}"#, "s/d/200.json": "{}",
            "s/e/route.json": #"{"method": "GET", "path": "/"}"#, "s/e/200.json": "{}",
            "s/f/route.json": #"{"method": "GET", "path": "/"}"#, "s/f/200.json": "{}",
        ])
        let problems = stubs.problems()
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("s/b/route.json: (top level): GET /users/{userID} is defined twice: in s/a/ and in s/b/") })
        #expect(problems.contains { $0.hasPrefix("s/f/route.json: (top level): GET / is defined twice: in s/e/ and in s/f/") })
    }

    /// The repeat check keys routes by a hash of their shape; when every hash collides, routes
    /// of different shapes are still told apart and each repeat is still found.
    @Test func repeatsAreFoundWhenEveryShapeHashCollides() {
        func route(_ id: String, _ method: String, _ path: String) -> Route {
            Route(id: id, service: nil, name: id, method: method, template: PathTemplate(path),
                  variants: [Variant(name: "200", status: 200, headers: [], body: [])], defaultIndex: 0)
        }
        let routes = [route("a", "GET", "/users/{id}"), route("b", "GET", "/users/me"), route("c", "DELETE", "/users/{id}"),
                      route("d", "GET", "/users/{userID}"), route("e", "GET", "/users/me"), route("f", "GET", "/users")]
        let colliding = StubLoader.repeatedShapes(routes, hash: { _ in 42 })
        let hashed = StubLoader.repeatedShapes(routes)
        for repeats in [colliding, hashed] {
            #expect(repeats.map { "\($0.first.id)>\($0.repeat.id)" } == ["a>d", "b>e"])
        }
        #expect(StubLoader.shapeHash(routes[0]) == StubLoader.shapeHash(routes[3]))
        #expect(StubLoader.shapeHash(routes[0]) != StubLoader.shapeHash(routes[1]))
    }

    @Test(arguments: [
        (["r/route.json": #"{"method": "GET", "path": "/x", "variants": {"teapot": {"body": {}}}}"#],
         #"r/route.json: variants.teapot: expected a status: start the name with one ("401-teapot") or add "status""#),
        (["r/route.json": #"{"method": "GET", "path": "/x", "variants": {"401": {"error": {"title": "t"}}}}"#],
         "r/route.json: variants.401.error: expected an errorEnvelope in the service's _service.json to render this error, found none"),
        (["s/_service.json": #"{"errorEnvelope": {"e": "{{reason}}"}}"#, "s/r/route.json": #"{"method": "GET", "path": "/x"}"#, "s/r/200.json": "{}"],
         "s/_service.json: errorEnvelope: unknown template variable {{reason}}; expected one of {{title}}, {{message}}, {{code}}, {{status}}"),
        (["s/_service.json": #"{"errorEnvelope": {"e": "{{code}}"}}"#, "s/r/route.json": #"{"method": "GET", "path": "/x", "variants": {"400": {"error": {"title": "t"}}}}"#],
         #"s/r/route.json: variants.400.error: missing "code"; the service's errorEnvelope uses {{code}}"#),
        (["r/route.json": #"{"method": "GET", "path": "/x"}"#, "r/ok.json": "{}"],
         "r/ok.json: expected a body file named <status>.<ext> or <status>-<name>.<ext> (like 200.json or 404-missing.json)"),
        (["r/route.json": #"{"method": "FETCH", "path": "/x"}"#, "r/200.json": "{}"],
         #"r/route.json: method: expected one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD, TRACE, CONNECT, found "FETCH""#),
        (["r/route.json": #"{"method": "GET", "path": "/x", "default": "201"}"#, "r/200.json": "{}"],
         #"r/route.json: default: expected the name of a variant (200), found "201""#),
        (["r/route.json": #"{"method": "GET", "path": "/x/{id}", "variants": {"200": {"when": {"path": {"userId": "1"}}}}}"#, "r/200.json": "{}"],
         #"r/route.json: variants.200.when.path.userId: expected a path parameter of the route (id), found "userId""#),
        (["r/route.json": #"{"method": "GET", "path": "/x", "delay": {"min": 900, "max": 100}}"#, "r/200.json": "{}"],
         "r/route.json: delay: expected min ≤ max, found min 900 and max 100"),
        (["r/route.json": #"{"method": "GET", "path": "/x", "variants": {"500": {"fault": "explode"}}}"#],
         #"r/route.json: variants.500.fault: expected one of reset, empty, garbage, truncate, hang, slow-headers, rst-stream, goaway, goaway-abrupt, rst-stream=CODE or rst-stream-after=N[:CODE], found "explode""#),
        (["r/route.json": #"{"method": "GET", "path": "/x", "variants": {"500": {"fault": "rst-stream=sideways"}}}"#],
         #"r/route.json: variants.500.fault: expected rst-stream, rst-stream=CODE, rst-stream-after=N or rst-stream-after=N:CODE, CODE one of no-error, protocol-error, internal-error, flow-control-error, settings-timeout, stream-closed, frame-size-error, refused-stream, cancel, compression-error, connect-error, enhance-your-calm, inadequate-security, http-1-1-required or a number, found "rst-stream=sideways""#),
        (["r/route.json": #"{"method": "GET", "path": "/x", "headers": {"X-A": 1}}"#, "r/200.json": "{}"],
         "r/route.json: headers.X-A: expected a string, found a number"),
        (["r/route.json": #"{"method": "GET", "path": "/x", "throttle": {"bytesPerSecond": 0}}"#, "r/200.json": "{}"],
         "r/route.json: throttle.bytesPerSecond: expected a whole number from 1 to 1000000000, found a number 0"),
        (["s/r/200.json": "{}"], "s/r/route.json: missing; every folder inside a service is a route and needs a route.json"),
        (["r/route.json": #"{"method": "GET", "path": "/__stubd/health"}"#, "r/200.json": "{}"],
         #"r/route.json: path: expected a path outside /__stubd/, which is reserved for the admin API, found "/__stubd/health""#),
    ])
    func explainsEachKindOfMistake(files: [String: String], expected: String) throws {
        let problems = try TemporaryStubs(files).problems()
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test func templatesAreCheckedAtLoadAndRenderedPerRequest() throws {
        let stubs = try TemporaryStubs([
            "r/route.json": #"{"method": "POST", "path": "/users/{id}", "variants": {"200": {"template": true}, "201": {"template": true, "body": {"q": "{{query.q}}"}}}}"#,
            "r/200.json": #"{"id": {{path.id}}, "name": "{{body.name}}", "via": "{{method}} {{request.path}}", "agent": "{{ header.user-agent }}"}"#,
        ])
        let route = try #require(try stubs.catalog().routes.first)
        var request = StubRequest(method: "POST", path: "/users/42", query: [("q", "a\"b")], headers: [("User-Agent", "App/1.0")],
                                  body: Array(#"{"name": "Ann \"A\""}"#.utf8))
        let plan = ResponsePlanner().plan(&request, catalog: try stubs.catalog())
        let body = try JSONParser.parse(try #require(plan.renderedBody))
        #expect(try body == JSONParser.parse(#"{"id": 42, "name": "Ann \"A\"", "via": "POST /users/42", "agent": "App/1.0"}"#))
        let quoted = try #require(route.variants[1].template?.render(request, parameters: [:]))
        #expect(try JSONParser.parse(quoted) == .object([("q", .string("a\"b"))]), "a quote in a value cannot break the JSON")
    }

    @Test(arguments: [
        (#"{"id": "{{path.userId}}"}"#, "r/200.json: variants.200.template: expected {{path.NAME}} to name a path parameter of the route (id), found {{path.userId}}"),
        (#"{"id": "{{cookie.a}}"}"#, "r/200.json: variants.200.template: unknown placeholder {{cookie.a}}; expected {{path.NAME}}, {{query.NAME}}, {{header.NAME}}, {{body.NAME}}, {{state.NAME}}, {{json body.NAME}}, {{method}}, {{request.path}} or \(TemplateHelper.forms)"),
        (#"{"id": {{path.id}}"#, "r/200.json: variants.200.template: expected valid JSON once each placeholder is filled (tried 0), found: expected ',' or '}', found end of file on line 1"),
    ])
    func badTemplatesAreExplained(body: String, expected: String) throws {
        let problems = try TemporaryStubs([
            "r/route.json": #"{"method": "GET", "path": "/x/{id}", "variants": {"200": {"template": true}}}"#,
            "r/200.json": body,
        ]).problems()
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test func acceptsFaultOnlyVariantsWithoutStatus() throws {
        let stubs = try TemporaryStubs([
            "r/route.json": #"{"method": "GET", "path": "/x", "variants": {"drop": {"fault": "reset"}, "slow": {"status": 200, "delay": {"ms": 5}}}}"#,
            "r/200.json": "{}",
        ])
        let route = try #require(try stubs.catalog().routes.first)
        #expect(route.variants.first { $0.name == "drop" }?.fault == .reset)
        #expect(route.variants.first { $0.name == "slow" }?.delay == .fixed(ms: 5))
        #expect(route.defaultVariant.name == "200")
    }

    @Test func withoutA2xxTheDefaultIsTheFirstResponseNotAFault() throws {
        let stubs = try TemporaryStubs([
            "r/route.json": #"{"method": "GET", "path": "/x", "variants": {"drop": {"fault": "reset"}, "404": {"body": {}}}}"#,
        ])
        #expect(try stubs.catalog().routes.first?.defaultVariant.name == "404")
    }

    @Test func delaysInheritFromServiceToRouteToVariant() throws {
        let stubs = try TemporaryStubs([
            "s/_service.json": #"{"delay": {"ms": 100}}"#,
            "s/a/route.json": #"{"method": "GET", "path": "/a", "variants": {"201": {"delay": {"min": 1, "max": 2}}}}"#,
            "s/a/200.json": "{}",
            "s/b/route.json": #"{"method": "GET", "path": "/b", "delay": {"median": 300, "sigma": 0.5, "max": 5000}}"#,
            "s/b/200.json": "{}",
        ])
        let catalog = try stubs.catalog()
        let a = try #require(catalog.route(id: "s/a")?.route)
        #expect(a.variants.first { $0.name == "200" }?.delay == .fixed(ms: 100))
        #expect(a.variants.first { $0.name == "201" }?.delay == .uniform(min: 1, max: 2))
        #expect(catalog.route(id: "s/b")?.route.variants.first?.delay == .lognormal(median: 300, sigma: 0.5, max: 5000))
    }
}
