import Foundation
import StubCore
import StubTestSupport
import StubdClient
import StubTesting
import Testing

/// Lists written in more than one place, kept equal: the fault and health words of the server,
/// `StubdClient` and `docs/admin-api.json`; the loader's messages as the docs quote them; the
/// shipped stubs as the README's table lists them.
@Suite(.timeLimit(.minutes(3))) struct DerivedListsTests {
    static func adminDocument() throws -> [String: Any] {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("docs/admin-api.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func schemaEnum(_ document: [String: Any], _ schema: String, _ property: String) -> [String]? {
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let properties = (schemas?[schema] as? [String: Any])?["properties"] as? [String: Any]
        return (properties?[property] as? [String: Any])?["enum"] as? [String]
    }

    @Test func faultAndHealthWordsAreTheSameEverywhere() throws {
        let document = try DerivedListsTests.adminDocument()
        let faults = Fault.allCases.map(\.rawValue)
        #expect(StubdClient.Fault.allCases.map(\.rawValue) == faults)
        #expect(DerivedListsTests.schemaEnum(document, "OverrideRequest", "fault") == faults)
        let statuses = HealthReport.Status.allCases.map(\.rawValue)
        #expect(StubdClient.Health.Status.allCases.map(\.rawValue) == statuses)
        #expect(DerivedListsTests.schemaEnum(document, "Health", "status") == statuses)
    }

    /// The lines of the fenced block that follows `marker` in a document.
    static func quotedLines(_ file: String, after marker: String) throws -> [String] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
        let rest = try #require(text.components(separatedBy: marker).dropFirst().first, "\(file) has no \"\(marker)\"")
        let block = rest.components(separatedBy: "```")[1]
        return block.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    static let readmeFixture = [
        "app/_service.json": #"{"basePath": "/api/v1"}"#,
        "app/login/route.json": #"{"method": "POST", "path": "/login", "varaints": {}}"#,
        "app/users/route.json": #"{"method": "GET", "path": "/users"}"#,
        "app/users/200.json": "{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}\n",
        "app/users2/route.json": #"{"method": "GET", "path": "/users"}"#,
        "app/users2/200.json": "{}",
    ]

    static let formatFixture = [
        "app/_service.json": #"{"basePath": "/api"}"#,
        "app/a/route.json": #"{"method": "GET", "path": "/users", "varaints": {}}"#,
        "app/a/200.json": "{}",
        "app/b/route.json": #"{"method": "GET", "path": "/b"}"#,
        "app/b/200.json": "{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}\n",
        "app/c/route.json": #"{"method": "GET", "path": "/users"}"#,
        "app/c/200.json": "{}",
        "r/route.json": #"{"method": "GET", "path": "/r", "variants": {"500": {"fault": "explode"}}}"#,
        "r/ok.json": "{}",
    ]

    @Test func theLoadersMessagesAreTheOnesTheDocsQuote() async throws {
        for (file, marker, fixture) in [("README.md", "was expected, and exits 1:", DerivedListsTests.readmeFixture),
                                        ("docs/stub-format.md", "Real lines from the tests:", DerivedListsTests.formatFixture)] {
            let stubs = try TemporaryStubDirectory(fixture)
            let checked = try await Subprocess.run(Repository.stubdBinary, ["check", stubs.url.path])
            #expect(checked.exitCode == 1)
            let printed = Set(checked.stdout.split(separator: "\n").map(String.init))
            for line in try DerivedListsTests.quotedLines(file, after: marker) {
                #expect(printed.contains(line), "\(file) quotes a message stubd check does not print:\n\(line)\nIt printed:\n\(String(checked.stdout))")
            }
        }
    }

    @Test func theReadmesTableOfShippedStubsIsWhatRoutesLists() async throws {
        let routes = try await Subprocess.run(Repository.stubdBinary, ["routes", Repository.shippedStubs.path]).stdout
        let listed = Set(routes.split(separator: "\n").dropFirst().map { line -> String in
            let cells = line.split(separator: " ", omittingEmptySubsequences: true)
            let variants = cells[4].split(separator: ",").joined(separator: ", ")
            return "\(cells[0]) | \(cells[1]) | \(cells[2]) | \(cells[3]) | \(variants)"
        })
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "| Service | Route | Method | Path | Variants |")[1].components(separatedBy: "\n\n")[0]
        let documented = Set(table.split(separator: "\n").dropFirst().map { line -> String in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            // Notes in parentheses after a variant name are the README's, not the loader's.
            let variants = cells[4].replacingOccurrences(of: #" \([^)]*\)"#, with: "", options: .regularExpression)
            return "\(cells[0]) | \(cells[1]) | \(cells[2]) | \(cells[3]) | \(variants)"
        })
        #expect(documented == listed, "README's table differs from `stubd routes Stubs`:\nonly in README: \(documented.subtracting(listed))\nonly in routes: \(listed.subtracting(documented))")
    }
}
