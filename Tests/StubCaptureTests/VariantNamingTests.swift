import StubCapture
import Testing

/// Variant names for labelled answers (Postman examples, Pact provider states): the label's slug,
/// then `-2`, `-3` … past every name already taken, whatever took it.
@Suite struct VariantNamingTests {
    /// The variant names of one route whose answers carry `labels` (nil: unlabelled).
    func names(_ labels: [String?]) -> [String] {
        let exchanges = labels.enumerated().map { index, label in
            var exchange = CapturedExchange(method: "GET", host: "api.example", path: "/items", query: [("page", "\(index)")], status: 200,
                                            responseBody: Array(#"{"page": \#(index)}"#.utf8), mimeType: "application/json")
            exchange.label = label
            return exchange
        }
        return CaptureLayout.build(exchanges).services[0].routes[0].variants.map(\.name)
    }

    @Test func aSharedLabelTakesTheNextFreeNumber() {
        #expect(names(["A", "A", "A 2", "A", "a-3", "A"]) == ["200-a", "200-a-2", "200-a-2-2", "200-a-3", "200-a-3-2", "200-a-4"])
        #expect(names([nil, nil, "2", "--", "200"]) == ["200", "200-2", "200-2-2", "200-3", "200-4"])
    }

    @Test func thousandsOfAnswersUnderOneLabelAreNumberedInOrder() {
        let many = names(Array(repeating: "items exist", count: 3000))
        #expect(many.first == "200-items-exist" && many[1] == "200-items-exist-2" && many.last == "200-items-exist-3000")
        #expect(Set(many).count == 3000)
    }
}
