import Foundation
import StubTestSupport
import Testing

/// A status that is no HTTP status (beyond `Int`, negative, a fraction, past 599) in a Pact file
/// or a Postman collection is a named problem, as in a HAR file: the file, the place in it and
/// what was found, exit status 1, nothing written. Before, `1e19` stopped the importer (SIGILL).
@Suite(.timeLimit(.minutes(3))) struct ImportNumberTests {
    static let statuses = ["1e19", "-1e19", "1e300", "-1", "99.5", "600", "100.5", "\"200\""]

    /// Writes `text` as `name` in a new folder and runs `stubd COMMAND file --stubs folder/Stubs`.
    func importing(_ command: String, _ text: String, as name: String) async throws -> (result: Curl.Result, file: String, stubs: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-numbers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        let stubs = dir.appendingPathComponent("Stubs")
        return (try await Subprocess.run(Repository.stubdBinary, [command, file.path, "--stubs", stubs.path]), file.path, stubs)
    }

    static func pact(status: String) -> String {
        #"{"consumer": {"name": "web"}, "provider": {"name": "users"}, "interactions": [{"description": "a user", "providerStates": [{"name": "a user exists"}], "request": {"method": "GET", "path": "/users/1"}, "response": {"status": 200, "body": {"id": 1}}}, {"description": "a strange status", "request": {"method": "GET", "path": "/users/2"}, "response": {"status": \#(status), "body": {"id": 2}}}], "metadata": {"pactSpecification": {"version": "3.0.0"}}}"#
    }

    static func postman(code: String) -> String {
        #"{"info": {"name": "Users"}, "item": [{"name": "Get user", "request": {"method": "GET", "url": "https://api.example/users/1"}, "response": [{"name": "Found", "code": 200, "body": "{}"}, {"name": "Strange", "code": \#(code), "body": "{}"}]}]}"#
    }

    func found(_ status: String) -> String {
        status.hasPrefix("\"") ? "a string \(status)" : "a number \(status)"
    }

    @Test(arguments: statuses) func aPactStatusThatIsNoHTTPStatusIsNamed(status: String) async throws {
        let (result, file, stubs) = try await importing("import-pact", ImportNumberTests.pact(status: status), as: "pact.json")
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == "stubd: \(file): interactions[1].response.status: expected an HTTP status (a whole number from 100 to 599), found \(found(status))\n")
        #expect(!FileManager.default.fileExists(atPath: stubs.path))
    }

    @Test(arguments: statuses) func aPostmanCodeThatIsNoHTTPStatusIsNamed(code: String) async throws {
        let (result, file, stubs) = try await importing("import-postman", ImportNumberTests.postman(code: code), as: "collection.json")
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == "stubd: \(file): item[0].response[1].code: expected an HTTP status (a whole number from 100 to 599), found \(found(code))\n")
        #expect(!FileManager.default.fileExists(atPath: stubs.path))
    }

    /// An example saved without a response keeps being left out and named, not refused.
    @Test func aPostmanExampleWithoutACodeIsSkipped() async throws {
        for missing in [#""code": null, "#, ""] {
            let collection = ImportNumberTests.postman(code: "200").replacingOccurrences(of: #""code": 200, "body": "{}"}]"#, with: "\(missing)\"body\": \"{}\"}]")
            let (result, _, _) = try await importing("import-postman", collection, as: "collection.json")
            #expect(result.exitCode == 0 && result.stderr.contains("skipped Get user / Strange: an example without a status code"), "\(result.stdout)\(result.stderr)")
        }
    }

    /// HAR's check, the one the others now share the form of.
    @Test(arguments: ["1e19", "99.5"]) func aHARStatusThatIsNoWholeNumberIsNamed(status: String) async throws {
        let har = #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.test/a"}, "response": {"status": \#(status)}}]}}"#
        let (result, file, _) = try await importing("import-har", har, as: "capture.har")
        #expect(result.exitCode == 1)
        #expect(result.stderr == "stubd: \(file): log.entries[0].response.status: expected a whole number, found a number\n")
    }
}
