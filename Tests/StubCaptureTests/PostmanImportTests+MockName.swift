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

    /// Adyen's two `cardDetails` examples share their name; the plain request's own `when` is
    /// empty (it is the route's default): the name picks it, not the other one.
    @Test func aSharedNameWithNoWhenHoldingPicksTheDefault() async throws {
        func example(_ kind: String, _ body: String) -> String {
            #"{"name": "OK", "code": 200, "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}], "body": {"mode": "raw", "raw": "\#(body)"}, "url": "https://pay.example/cardDetails"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"kind\": \"\#(kind)\"}"}"#
        }
        let collection = """
        {"info": {"name": "Pay"}, "item": [{"name": "Brands", "request": {"method": "POST", "url": "https://pay.example/cardDetails"}, "response": [
          \(example("plain", #"{\"cardNumber\": \"411111\"}"#)), \(example("limited", #"{\"cardNumber\": \"411111\", \"brands\": \"visa\"}"#))]}]}
        """
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            func brands(_ body: String) async throws -> Fetched {
                try await HTTPClient.fetch(server.url("/cardDetails"), method: "POST", headers: ["Content-Type": "application/json", "x-mock-response-name": "OK"],
                                           body: Data(body.utf8))
            }
            let plain = try await brands(#"{"cardNumber": "411111"}"#)
            let limited = try await brands(#"{"cardNumber": "411111", "brands": "visa"}"#)
            #expect(plain.text.contains("plain") && limited.text.contains("limited"), "\(plain.text) \(limited.text)")
        }
    }
}
