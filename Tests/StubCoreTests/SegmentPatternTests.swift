import StubCore
import Testing

/// Segments that mix literal text and parameters: `{Sid}.json`, `thumbnail.{extension}`,
/// `v{major}.{minor}`.
@Suite struct SegmentPatternTests {
    static func route(_ id: String, _ method: String, _ path: String, body: String = "{}") -> [String: String] {
        ["app/\(id)/route.json": #"{"method": "\#(method)", "path": "\#(path)"}"#, "app/\(id)/200.json": body]
    }

    static func captured(_ pattern: String, _ segment: String) -> [String]? {
        guard let pattern = SegmentPattern(pattern) else { return nil }
        var segment = segment
        return segment.withUTF8 { bytes in pattern.match(bytes)?.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } }
    }

    @Test func aPatternCapturesWhatEachParameterTakes() {
        #expect(Self.captured("{Sid}.json", "AC123.json") == ["AC123"])
        #expect(Self.captured("{Sid}.json", ".json") == nil)  // a parameter takes one byte or more
        #expect(Self.captured("{Sid}.json", "AC123.xml") == nil)
        #expect(Self.captured("thumbnail.{extension}", "thumbnail.png") == ["png"])
        #expect(Self.captured("v{major}.{minor}", "v2.10") == ["2", "10"])
        #expect(Self.captured("{owner}@{domain}", "ann@example.com") == ["ann", "example.com"])
        // Each parameter takes as much as still lets the rest match, as `(.+)` does.
        #expect(Self.captured("{name}.{ext}", "a.b.json") == ["a.b", "json"])
        #expect(Self.captured("{id}.json", "a.json.json") == ["a.json"])
    }

    @Test func onlyMixedSegmentsArePatterns() {
        #expect(SegmentPattern("{id}") == nil)
        #expect(SegmentPattern("plain") == nil)
        #expect(SegmentPattern("{id.json") == nil)
        #expect(SegmentPattern("id}.json") == nil)
        #expect(SegmentPattern("{}.json") == nil)
        #expect(PathTemplate("/a/{Sid}.json").parameterNames == ["Sid"])
        #expect(PathTemplate("/a/v{major}.{minor}/{id}").parameterNames == ["major", "minor", "id"])
    }

    @Test func literalsBeatPatternsWhichBeatParameters() throws {
        let stubs = try TemporaryStubs(Self.route("json", "GET", "/Accounts/{Sid}.json")
            .merging(Self.route("xml", "GET", "/Accounts/{Sid}.xml")) { a, _ in a }
            .merging(Self.route("any", "GET", "/Accounts/{Sid}")) { a, _ in a }
            .merging(Self.route("me", "GET", "/Accounts/me.json")) { a, _ in a }
            .merging(Self.route("fmt", "GET", "/Accounts/{Sid}.{format}")) { a, _ in a }
            .merging(Self.route("calls", "GET", "/Accounts/{Sid}/Calls/{CallSid}.json")) { a, _ in a })
        let catalog = try stubs.catalog()
        func found(_ path: String) -> (String, [String: String])? {
            guard case .route(let index, let parameters) = catalog.matcher.match(method: "GET", path: path) else { return nil }
            return (catalog.routes[index].id, parameters)
        }
        #expect(found("/Accounts/AC1.json")?.0 == "app/json")
        #expect(found("/Accounts/AC1.json")?.1 == ["Sid": "AC1"])
        #expect(found("/Accounts/AC1.xml")?.0 == "app/xml")
        #expect(found("/Accounts/me.json")?.0 == "app/me")
        #expect(found("/Accounts/AC1.csv")?.0 == "app/fmt")
        #expect(found("/Accounts/AC1.csv")?.1 == ["Sid": "AC1", "format": "csv"])
        #expect(found("/Accounts/AC1")?.0 == "app/any")
        #expect(found("/Accounts/AC1/Calls/CA9.json")?.1 == ["Sid": "AC1", "CallSid": "CA9"])
        #expect(found("/Accounts/AC1/Calls/CA9") == nil)
        // Segments are decoded before a pattern is tried, as before a literal is.
        #expect(found("/Accounts/AC%201.json")?.1 == ["Sid": "AC 1"])
        #expect(found("/Accounts/AC1%2Ejson")?.0 == "app/json")
        // A path without the route's method still says which methods it has.
        #expect(catalog.matcher.match(method: "POST", path: "/Accounts/AC1.json") == .methodNotAllowed(allowed: ["GET", "HEAD"]))
    }

    @Test func whenAndTemplatesReadAParameterInsideASegment() throws {
        let stubs = try TemporaryStubs([
            "app/file/route.json": """
            {"method": "GET", "path": "/files/{id}/thumbnail.{extension}", "default": "200",
             "variants": {
               "200-png": {"status": 200, "body": {"kind": "png"}, "when": {"path": {"extension": "png", "id": "*"}}},
               "200": {"status": 200, "body": {"id": "{{path.id}}", "ext": "{{path.extension}}"}, "template": true}
             }}
            """,
        ])
        let catalog = try stubs.catalog()
        func answer(_ path: String) -> (String?, String) {
            var request = StubRequest(method: "GET", path: path)
            let plan = ResponsePlanner().plan(&request, catalog: catalog)
            return (plan.variantName, String(decoding: plan.renderedBody ?? [], as: UTF8.self))
        }
        #expect(answer("/files/7/thumbnail.png").0 == "200-png")
        let other = answer("/files/7/thumbnail.j%70g")
        #expect(other.0 == "200")
        #expect(other.1.contains(#""id": "7""#) && other.1.contains(#""ext": "jpg""#), "\(other.1)")
    }

    @Test func theLoaderNamesPatternsItCannotMatch() throws {
        let problems = try TemporaryStubs(Self.route("a", "GET", "/x/{a}{b}.json").merging(Self.route("b", "GET", "/y/{id.json")) { a, _ in a }).problems()
        #expect(problems.contains { $0.hasPrefix("app/a/route.json: path:") && $0.contains("{a} and {b} side by side") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("app/b/route.json: path:") && $0.contains("found \"{id.json\"") }, "\(problems)")
        // Two routes of one shape are one route twice, whatever their parameters are called.
        let twice = try TemporaryStubs(Self.route("a", "GET", "/x/{id}.json").merging(Self.route("b", "GET", "/x/{sid}.json")) { a, _ in a }).problems()
        #expect(twice.count == 1, "\(twice)")
    }
}
