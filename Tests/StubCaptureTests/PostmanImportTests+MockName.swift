import Foundation
import StubCapture
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// Examples of one route whose requests overlap: a shared name, a request that adds fields.
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

    /// Adyen's "Tokenize card details" sends every field of "Make a card payment" and more: the
    /// example asking for more is tried first, so each request gets its own answer.
    @Test func anExampleWhoseRequestAddsFieldsIsChosenForThem() async throws {
        func example(_ name: String, _ body: String) -> String {
            #"{"name": "\#(name)", "code": 200, "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}], "body": {"mode": "raw", "raw": "\#(body)"}, "url": "https://pay.example/payments"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"kind\": \"\#(name)\"}"}"#
        }
        let collection = """
        {"info": {"name": "Pay"}, "item": [{"name": "Pay", "request": {"method": "POST", "url": "https://pay.example/payments"}, "response": [
          \(example("card", #"{\"amount\": 10}"#)), \(example("tokenized", #"{\"amount\": 10, \"store\": true}"#)), \(example("large", #"{\"amount\": 20}"#))]}]}
        """
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            func pay(_ body: String) async throws -> Fetched {
                try await HTTPClient.fetch(server.url("/payments"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            }
            let tokenized = try await pay(#"{"amount": 10, "store": true}"#)
            let card = try await pay(#"{"amount": 10}"#)
            #expect(tokenized.text.contains("tokenized") && card.text.contains("card"), "\(tokenized.text) \(card.text)")
        }
    }
}
