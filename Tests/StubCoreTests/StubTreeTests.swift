import Foundation
import StubCore
import Testing

/// Links in a stub directory: what the loader follows, what it reads once, what it warns about.
@Suite struct StubTreeTests {
    static let files = [
        "svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#,
        "svc/hello/200.json": "{}",
    ]

    func link(_ stubs: TemporaryStubs, _ name: String, to target: String) {
        #expect(symlink(target, stubs.url.appendingPathComponent(name).path) == 0)
    }

    @Test func hiddenLinksAreNotFollowed() throws {
        let stubs = try TemporaryStubs(StubTreeTests.files)
        for i in 0..<3 { link(stubs, ".self\(i)", to: ".") }
        link(stubs, "svc/.up", to: "..")
        let catalog = try stubs.catalog()
        #expect(catalog.routes.map(\.id) == ["svc/hello"])
        #expect(catalog.warnings.isEmpty)
    }

    @Test func aLinkBackIntoTheTreeIsAProblemNotALoop() throws {
        let stubs = try TemporaryStubs(StubTreeTests.files)
        link(stubs, "loop", to: ".")
        link(stubs, "svc/other", to: "hello")
        #expect(stubs.problems() == [
            "loop: leads to a folder already read (a link back into the tree); expected each folder to be reached one way only",
            "svc/other: leads to a folder already read (a link back into the tree); expected each folder to be reached one way only",
        ])
    }

    /// A service with many routes lists them in parallel; the folders reached twice are still
    /// the later ones in name order, every run.
    @Test func aLargeServiceListedInParallelReportsTheLaterWayIn() throws {
        var files: [String: String] = [:]
        for i in 0..<100 {
            files["svc/r\(i)/route.json"] = #"{"method": "GET", "path": "/r\#(i)"}"#
            files["svc/r\(i)/200.json"] = "{}"
        }
        let stubs = try TemporaryStubs(files)
        link(stubs, "svc/a-link", to: "r50")
        link(stubs, "svc/z-link", to: "r7")
        for _ in 0..<3 {
            #expect(stubs.problems() == [
                "svc/r50: leads to a folder already read (a link back into the tree); expected each folder to be reached one way only",
                "svc/z-link: leads to a folder already read (a link back into the tree); expected each folder to be reached one way only",
            ])
        }
        let catalog = try TemporaryStubs(files).catalog()
        #expect(catalog.routes.count == 100)
    }

    @Test func aLinkOutOfTheRootIsFollowedWithAWarning() throws {
        let stubs = try TemporaryStubs(StubTreeTests.files)
        let outside = try TemporaryStubs(["bye/route.json": #"{"method": "GET", "path": "/bye"}"#, "bye/200.json": "{}"])
        link(stubs, "svc/bye", to: outside.url.appendingPathComponent("bye").path)
        let catalog = try stubs.catalog()
        #expect(catalog.routes.map(\.id) == ["svc/bye", "svc/hello"])
        #expect(catalog.warnings.count == 1)
        let warning = try #require(catalog.warnings.first?.description)
        #expect(warning.hasPrefix("svc/bye: links outside the stub directory, to /"))
        #expect(warning.hasSuffix("/bye; it is followed"))
    }

    @Test func linksInsideTheRootAreFollowedQuietly() throws {
        // A hidden folder is not read by itself, only through the link that leads into it.
        let stubs = try TemporaryStubs([
            ".shared/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, ".shared/hello/200.json": "{}",
            "svc/_service.json": #"{"basePath": "/v1"}"#,
        ])
        link(stubs, "svc/hi", to: "../.shared/hello")
        let catalog = try stubs.catalog()
        #expect(catalog.routes.map { "\($0.id) \($0.fullPath)" } == ["svc/hi /v1/hello"])
        #expect(catalog.warnings.isEmpty)
    }
}
