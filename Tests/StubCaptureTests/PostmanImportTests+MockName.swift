import Foundation
import StubCapture
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// `x-mock-response-name` when two requests' examples share the name.
extension PostmanImportTests {
    /// Two requests' examples share a name: `x-mock-response-name` picks the one whose request
    /// this is.
    @Test func aSharedExampleNamePicksTheOneWhoseRequestMatches() async throws {
        func item(_ id: Int) -> String {
            #"{"name": "User \#(id)", "request": {"method": "GET", "url": "https://people.example/users/\#(id)"}, "response": [{"name": "Success", "code": 200, "originalRequest": {"method": "GET", "url": "https://people.example/users/\#(id)"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"id\": \#(id)}"}]}"#
        }
        let collection = #"{"info": {"name": "People"}, "item": [\#(item(1)), \#(item(2))]}"#
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let second = try await HTTPClient.fetch(server.url("/users/2"), headers: ["x-mock-response-name": "Success"])
            #expect(second.status == 200 && second.text.contains("2"), "\(second.text)")
            let first = try await HTTPClient.fetch(server.url("/users/1"), headers: ["x-mock-response-name": "Success"])
            #expect(first.status == 200 && first.text.contains("1"), "\(first.text)")
        }
    }
}
