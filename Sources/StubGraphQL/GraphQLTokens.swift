import StubCore

/// A cursor over a document's tokens, shared by the schema and the operation parsers.
struct GraphQLTokens {
    private let tokens: [GraphQLLexer.Token]
    private(set) var index = 0
    /// How many levels of selection sets, list types, lists, input objects and skipped groups
    /// may enclose one another: the readers recurse once per level, so a hostile document
    /// (100,000 `[`) is refused at the level past this instead of overflowing the stack.
    let depthLimit = GraphQLLimits.defaultDepth
    /// The levels open where the cursor is.
    private var depth = 0

    init(_ tokens: [GraphQLLexer.Token]) {
        self.tokens = tokens
    }

    var current: GraphQLLexer.Token { tokens[index] }
    var atEnd: Bool { current.kind == .end }

    mutating func advance() {
        if !atEnd { index += 1 }
    }

    /// True (and moves past it) when the current token is the punctuator `p`.
    mutating func take(_ p: String) -> Bool {
        guard current.kind == .punctuator(p) else { return false }
        advance()
        return true
    }

    /// True (and moves past it) when the current token is the name `word`.
    mutating func takeKeyword(_ word: String) -> Bool {
        guard current.kind == .name(word) else { return false }
        advance()
        return true
    }

    /// The current token's name, moving past it; nil when it is not a name.
    mutating func name() -> String? {
        guard case .name(let text) = current.kind else { return nil }
        advance()
        return text
    }

    /// Opens one more level of nesting at the current token; refused past `depthLimit`. Each
    /// call is paired with `leave()` (a `defer` just after it).
    mutating func enter() throws(GraphQLLexer.Failure) {
        guard depth < depthLimit else { throw fail("nesting deeper than \(depthLimit) levels") }
        depth += 1
    }

    /// Closes the level the last `enter()` opened.
    mutating func leave() {
        depth -= 1
    }

    mutating func expect(_ p: String) throws(GraphQLLexer.Failure) {
        guard take(p) else { throw fail("expected '\(p)'") }
    }

    mutating func expectName(_ what: String) throws(GraphQLLexer.Failure) -> String {
        guard let text = name() else { throw fail("expected \(what)") }
        return text
    }

    /// A type reference: `Name`, `[Type]`, either with `!`.
    mutating func typeReference() throws(GraphQLLexer.Failure) -> GraphQLType {
        var type: GraphQLType
        if current.kind == .punctuator("[") {
            try enter()
            defer { leave() }
            advance()
            type = .list(try typeReference())
            try expect("]")
        } else {
            type = .named(try expectName("a type name"))
        }
        return take("!") ? .nonNull(type) : type
    }

    /// Skips a balanced `( … )`, `[ … ]` or `{ … }` group, if one starts here.
    mutating func skipGroup() throws(GraphQLLexer.Failure) {
        let pairs = ["(": ")", "[": "]", "{": "}"]
        guard case .punctuator(let open) = current.kind, let close = pairs[open] else { return }
        try enter()
        defer { leave() }
        advance()
        while !take(close) {
            guard !atEnd else { throw fail("expected '\(close)'") }
            if case .punctuator(let p) = current.kind, pairs[p] != nil { try skipGroup() } else { advance() }
        }
    }

    /// Skips an argument list (or variable definitions), if one starts here.
    mutating func skipArguments() throws(GraphQLLexer.Failure) {
        if current.kind == .punctuator("(") { try skipGroup() }
    }

    /// Skips directives: `@name(arguments)` any number of times.
    mutating func skipDirectives() throws(GraphQLLexer.Failure) {
        while take("@") {
            _ = try expectName("a directive name")
            try skipArguments()
        }
    }

    /// Skips a description (a string before a definition).
    mutating func skipDescription() {
        if case .string = current.kind { advance() }
    }

    func fail(_ message: String) -> GraphQLLexer.Failure {
        GraphQLLexer.Failure(message: "\(message), found \(describe(current.kind))", line: current.line, column: current.column)
    }

    private func describe(_ kind: GraphQLLexer.Token.Kind) -> String {
        switch kind {
        case .punctuator(let p): return "'\(p)'"
        case .name(let n): return n
        case .int(let v), .float(let v): return v
        case .string: return "a string"
        case .end: return "the end of the document"
        }
    }
}

/// A type as a field or variable refers to it.
indirect enum GraphQLType: Equatable, Sendable, CustomStringConvertible {
    case named(String)
    case list(GraphQLType)
    case nonNull(GraphQLType)

    /// The named type inside the lists and non-nulls.
    var namedType: String {
        switch self {
        case .named(let name): return name
        case .list(let inner), .nonNull(let inner): return inner.namedType
        }
    }

    var description: String {
        switch self {
        case .named(let name): return name
        case .list(let inner): return "[\(inner)]"
        case .nonNull(let inner): return "\(inner)!"
        }
    }
}
