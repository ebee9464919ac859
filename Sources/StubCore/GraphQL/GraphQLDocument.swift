/// The operations of an executable document, found from its tokens (`GraphQLLexer`) without
/// parsing it whole.
package enum GraphQLDocument {
    /// The name of the first named operation (`query GetUser`, `mutation CreateUser`); nil for a
    /// document whose operations are all anonymous (`{ me { id } }`).
    package static func firstOperationName(in document: String) -> String? {
        // Stops at the first named operation: the name is in the first bytes of most documents,
        // and a long one is not tokenized to its end for it.
        operations(in: document, untilNamed: true).lazy.compactMap(\.name).first
    }

    /// Every operation definition at the top level: its kind (`query`, `mutation`,
    /// `subscription`, or `query` for the `{ … }` shorthand) and its name, if any. A document
    /// that is not GraphQL text has none. `untilNamed` stops at the first named one (found even
    /// when the text breaks after it).
    package static func operations(in document: String, untilNamed: Bool = false) -> [(kind: String, name: String?)] {
        var lexer = GraphQLLexer(document)
        var found: [(kind: String, name: String?)] = []
        var depth = 0, parens = 0
        var previous: GraphQLLexer.Token.Kind?
        var pendingKind: String?
        while true {
            guard let token = lexer.nextToken() else { return untilNamed ? found : [] }
            if token.kind == .end { break }
            defer { previous = token.kind }
            if let kind = pendingKind {
                pendingKind = nil
                if case .name(let next) = token.kind {
                    found.append((kind, next))
                    if untilNamed { return found }
                } else {
                    found.append((kind, nil))
                }
            }
            switch token.kind {
            case .punctuator("("): parens += 1
            case .punctuator(")"): parens = max(0, parens - 1)
            case .punctuator("{"):
                if depth == 0 && parens == 0 && (previous == nil || previous == .punctuator("}")) { found.append(("query", nil)) }
                depth += 1
            case .punctuator("}"): depth = max(0, depth - 1)
            case .name(let word) where depth == 0 && parens == 0 && previous != .punctuator("$")
                && ["query", "mutation", "subscription"].contains(word):
                pendingKind = word
            default:
                break
            }
        }
        if let kind = pendingKind { found.append((kind, nil)) }
        return found
    }
}
