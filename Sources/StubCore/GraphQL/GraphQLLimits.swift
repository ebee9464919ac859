/// Bounds on what one request to a GraphQL endpoint may send (`--graphql-max-document`,
/// `--graphql-max-depth`, `--graphql-max-batch`): past them it gets a 400 in GraphQL's error
/// shape before the document is read whole, so a huge or deeply nested document costs a polling
/// thread next to nothing. The defaults are far above what real clients send: generated iOS
/// operations (Apollo iOS, with their fragments inlined) are tens of KiB and nest a dozen levels;
/// Apollo Client batches 10 operations by default.
package struct GraphQLLimits: Sendable, Equatable {
    /// The largest query document, in bytes as sent (default 1 MiB).
    package var documentBytes = 1 << 20
    /// The deepest nesting of selection sets (`{`) in a document (default 128).
    package var depth = GraphQLLimits.defaultDepth
    /// The most operations in one batch (default 100).
    package var batch = 100

    /// The default depth: far deeper than real documents go (schemas nest list types a level or
    /// two, `[String!]!`; generated operations a dozen or so selection sets), and shallow enough
    /// that a reader recursing once per level stays well inside a thread's stack. `stubd check
    /// --graphql` holds schemas and operation documents to it too.
    package static let defaultDepth = 128

    /// The defaults.
    package init() {}

    /// Limits with these values.
    package init(documentBytes: Int, depth: Int, batch: Int) {
        self.documentBytes = documentBytes
        self.depth = depth
        self.batch = batch
    }
}

extension GraphQLDocument {
    /// True when `document` nests selection sets (`{`) deeper than `limit`. One pass over the
    /// bytes, no tokens: strings, block strings and comments are skipped, and the pass stops at
    /// the first brace past the limit.
    package static func nests(_ document: String, deeperThan limit: Int) -> Bool {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var utf8 = Array(document.utf8)[...]
        var depth = 0
        while let b = utf8.popFirst() {
            switch b {
            case UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            case UInt8(ascii: "#"):
                while let c = utf8.first, c != 0x0A, c != 0x0D { utf8.removeFirst() }
            case quote where utf8.starts(with: [quote, quote]):
                // A block string: up to the next unescaped `"""`.
                utf8.removeFirst(2)
                while !utf8.isEmpty && !utf8.starts(with: [quote, quote, quote]) {
                    if utf8.starts(with: [backslash, quote, quote, quote]) { utf8.removeFirst(4) } else { utf8.removeFirst() }
                }
                utf8 = utf8.dropFirst(3)
            case quote:
                while let c = utf8.popFirst(), c != quote, c != 0x0A {
                    if c == backslash { _ = utf8.popFirst() }
                }
            default:
                break
            }
        }
        return false
    }
}
