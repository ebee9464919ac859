@testable import StubCore
import Testing

/// A node's summary lets a lookup rule a segment out from one packed record; only a segment longer
/// than the 16 bytes it holds needs the node's whole text.
@Suite struct RouteNodeSummaryTests {
    func summary(_ text: String) -> RouteNodeSummary {
        RouteNodeSummary(RouteNode(segment: Array(text.utf8)), methods: [])
    }

    func mayMatch(_ summary: RouteNodeSummary, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { summary.mayMatch($0) }
    }

    @Test func everyByteOfAShortSegmentCounts() {
        let node = summary("abcdefgh12345678")
        #expect(mayMatch(node, "abcdefgh12345678"))
        #expect(!mayMatch(node, "abcdefgh12345679"))  // the second word differs
        #expect(!mayMatch(node, "Abcdefgh12345678"))  // the first word differs
        #expect(!mayMatch(node, "abcdefgh1234567"))  // shorter
        #expect(mayMatch(summary("v1"), "v1"))
        #expect(!mayMatch(summary("v1"), "v2"))
        #expect(mayMatch(summary(""), ""))
    }

    @Test func aLongSegmentIsOnlyRuledOutByItsLengthAndFirstBytes() {
        let node = summary("abcdefghijklmnopqrstuvwxyz-1")
        // Alike in length and the first 16 bytes: the summary cannot tell, the node's text must.
        #expect(mayMatch(node, "abcdefghijklmnopqrstuvwxyz-2"))
        #expect(!mayMatch(node, "abcdefghijklmnoXqrstuvwxyz-1"))
        #expect(!mayMatch(node, "abcdefghijklmnopqrstuvwxyz-12"))
    }

    /// The summary carries what lets a lookup skip reads: how many literal children there are, and
    /// the first route ending at the parameter child, by method index.
    @Test func itCountsLiteralChildrenAndNamesTheParameterChildsFirstRoute() {
        var node = RouteNode(segment: Array("items".utf8))
        node.literalOrder = [4, 9]
        node.parameter = 5
        var parameter = RouteNode(parent: 3)
        parameter.endpoints = [RouteMatcher.Endpoint(method: "DELETE", route: 17), RouteMatcher.Endpoint(method: "GET", route: 18)]
        let summary = RouteNodeSummary(node, parameterChild: parameter, methods: ["GET", "DELETE"])
        #expect(summary.literals == 2)
        #expect(summary.parameter == 5)
        #expect(summary.parameterMethod == 1)
        #expect(summary.parameterRoute == 17)
        let bare = RouteNodeSummary(RouteNode(segment: Array("x".utf8)), methods: ["GET"])
        #expect(bare.literals == 0 && bare.parameter == -1 && bare.parameterRoute == -1)
    }
}
