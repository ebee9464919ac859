@testable import StubCore
@testable import StubServer
import StubTesting
import Testing

/// The addresses the transport notes for each route's prepared answer (`TransportHints`): they
/// must be where libmicrohttpd keeps that answer, or asking for them early helps nothing.
@Suite struct TransportHintsTests {
    @Test func aResponsesCacheLinesPointAtItsHeaders() throws {
        let response = MHDResponse(bytes: Array("{}".utf8), headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Trace", "t-1")])
        let lines = response.cacheLines
        #expect(lines.count == TransportHints.perRoute)
        #expect(lines[0] == UInt(bitPattern: UnsafeRawPointer(response.pointer)))
        let texts = try lines[4...].map { address -> String in
            let pointer = try #require(UnsafePointer<CChar>(bitPattern: address))
            return String(cString: pointer)
        }
        #expect(texts == ["Content-Type", "application/json", "X-Trace", "t-1"])
    }

    @Test func aPreparedCatalogNotesEveryRoutesDefaultAnswer() throws {
        let stubs = try TemporaryStubDirectory([
            "app/a/route.json": #"{"method": "GET", "path": "/a", "default": "201", "variants": {"200": {"status": 200, "body": {"v": 0}}, "201": {"status": 201, "body": {"v": 1}}}}"#,
            "app/b/route.json": #"{"method": "GET", "path": "/b"}"#,
            "app/b/200.json": #"{"b": true}"#,
        ])
        let catalog = try StubLoader.load(directory: stubs.url.path).get()
        let prepared = PreparedCatalog(catalog)
        for (index, route) in catalog.routes.enumerated() {
            let expected = prepared.response(key: catalog.variantKey(route: index, variant: route.defaultIndex))
            #expect(catalog.transportHints.addresses(route: index).first == UInt(bitPattern: UnsafeRawPointer(expected.pointer)), "\(route.id)")
        }
        #expect(catalog.transportHints.addresses(route: catalog.routes.count).isEmpty)
    }

    @Test func aTableKeepsAtMostALinePerRouteAndIgnoresOtherRoutes() {
        let hints = TransportHints(routes: 2)
        hints.set(route: 1, Array(1...12))
        hints.set(route: 2, [99])
        hints.set(route: -1, [99])
        #expect(hints.addresses(route: 0) == [])
        #expect(hints.addresses(route: 1) == Array(1...8))
    }
}
