/// The operations of an executable document, found from its tokens (`GraphQLLexer`) without
/// parsing it whole.
package enum GraphQLDocument {
    /// The name of the first named operation (`query GetUser`, `mutation CreateUser`); nil for a
    /// document whose operations are all anonymous (`{ me { id } }`).
    package static func firstOperationName(in document: String) -> String? {
        operations(in: document).lazy.compactMap(\.name).first
    }

    /// Every operation definition at the top level: its kind (`query`, `mutation`,
    /// `subscription`, or `query` for the `{ … }` shorthand) and its name, if any. A document
    /// that is not GraphQL text has none.
    package static func operations(in document: String) -> [(kind: String, name: String?)] {
        guard case .success(let tokens) = GraphQLLexer.tokens(document) else { return [] }
        var found: [(kind: String, name: String?)] = []
        var depth = 0, parens = 0
        for (index, token) in tokens.enumerated() {
            let previous = index > 0 ? tokens[index - 1].kind : nil
            switch token.kind {
            case .punctuator("("): parens += 1
            case .punctuator(")"): parens = max(0, parens - 1)
            case .punctuator("{"):
                if depth == 0 && parens == 0 && (previous == nil || previous == .punctuator("}")) { found.append(("query", nil)) }
                depth += 1
            case .punctuator("}"): depth = max(0, depth - 1)
            case .name(let word) where depth == 0 && parens == 0 && previous != .punctuator("$")
                && ["query", "mutation", "subscription"].contains(word):
                var name: String?
                if index + 1 < tokens.count, case .name(let next) = tokens[index + 1].kind { name = next }
                found.append((word, name))
            default:
                break
            }
        }
        return found
    }
}
