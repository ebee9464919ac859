import StubCore

/// A value as a document writes it: an argument's, a variable's default, an input field's
/// default. Numbers keep their text, so a range check sees what was written.
indirect enum GraphQLValue: Sendable, Equatable {
    case variable(String)
    case int(String)
    case float(String)
    case string(String)
    case boolean(Bool)
    case null
    case enumValue(String)
    case list([GraphQLValue])
    case object([(name: String, value: GraphQLValue)])

    static func == (a: GraphQLValue, b: GraphQLValue) -> Bool { a.description == b.description }

    /// The value as GraphQL prints it, for messages (`"a"`, `[1, 2]`, `{ name: "a" }`).
    var description: String {
        switch self {
        case .variable(let name): "$\(name)"
        case .int(let text), .float(let text): text
        case .string(let text): GraphQLValue.quoted(text)
        case .boolean(let value): value ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): name
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields): fields.isEmpty ? "{}" : "{ " + fields.map { "\($0.name): \($0.value.description)" }.joined(separator: ", ") + " }"
        }
    }

    /// A string as graphql-core prints one (`print_string`): its value (`text` is as written,
    /// escapes and all) with quotes, backslashes and control characters escaped, so that a
    /// message stays on one line.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in unescaped(text).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The escapes that stand for one character: `\n`, `\"` and the rest but `\u`.
    static let simpleEscapes: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "\\": "\\", "/": "/", "b": "\u{08}", "f": "\u{0C}", "n": "\n", "r": "\r", "t": "\t"]

    /// A string's value from its text as written: `\n`, `\"`, `\u00E9`, `\u{1F600}` and the
    /// other escapes of GraphQL's grammar read (a surrogate pair as one character).
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        var pendingHigh: UInt32?
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.popFirst() else {
                out.append(scalar)
                continue
            }
            if let decoded = simpleEscapes[next] {
                out.append(decoded)
                continue
            }
            guard next == "u" else {
                out.append(scalar)
                out.append(next)
                continue
            }
            var hex = ""
            if scalars.first == "{" {
                scalars.removeFirst()
                while let digit = scalars.popFirst(), digit != "}" { hex.unicodeScalars.append(digit) }
            } else {
                for _ in 0..<4 { if let digit = scalars.popFirst() { hex.unicodeScalars.append(digit) } }
            }
            guard let value = UInt32(hex, radix: 16) else { continue }
            if (0xD800...0xDBFF).contains(value) {
                pendingHigh = value
                continue
            }
            if let high = pendingHigh, (0xDC00...0xDFFF).contains(value) {
                pendingHigh = nil
                if let pair = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (value - 0xDC00)) { out.append(pair) }
                continue
            }
            if let decoded = Unicode.Scalar(value) { out.append(decoded) }
        }
        return String(out)
    }

    /// Every variable the value names, nested ones too.
    var variables: [String] {
        switch self {
        case .variable(let name): [name]
        case .list(let items): items.flatMap(\.variables)
        case .object(let fields): fields.flatMap(\.value.variables)
        default: []
        }
    }
}

/// An argument or input field as a schema defines it: `id: ID!`, `first: Int = 10`.
struct GraphQLInputValue: Sendable {
    let name: String
    let type: GraphQLType
    let defaultValue: GraphQLValue?
    let line: Int
    let column: Int
    /// Marked `@deprecated`.
    var deprecated = false
}

/// An argument as an operation passes it: `id: $id`, `first: 10`.
struct GraphQLArgument: Sendable {
    let name: String
    let literal: GraphQLLiteral
    let line: Int
    let column: Int
    var value: GraphQLValue { literal.value }
}

/// A directive where an operation uses it: `@include(if: $withEmail)`.
struct GraphQLDirective: Sendable {
    let name: String
    let arguments: [GraphQLArgument]
    let line: Int
    let column: Int
}

extension GraphQLTokens {
    /// A value; `constant` refuses variables (in a default value or a schema).
    mutating func value(constant: Bool) throws(GraphQLLexer.Failure) -> GraphQLValue {
        try literal(constant: constant).value
    }

    /// `(name: value, …)`, if an argument list starts here.
    mutating func arguments(constant: Bool) throws(GraphQLLexer.Failure) -> [GraphQLArgument] {
        guard take("(") else { return [] }
        var arguments: [GraphQLArgument] = []
        while !take(")") {
            let (line, column) = (current.line, current.column)
            let name = try expectName("an argument name")
            try expect(":")
            arguments.append(GraphQLArgument(name: name, literal: try literal(constant: constant), line: line, column: column))
        }
        return arguments
    }

    /// `@name(arguments)` any number of times.
    mutating func directives(constant: Bool) throws(GraphQLLexer.Failure) -> [GraphQLDirective] {
        var directives: [GraphQLDirective] = []
        while current.kind == .punctuator("@") {
            let (line, column) = (current.line, current.column)
            advance()
            let name = try expectName("a directive name")
            directives.append(GraphQLDirective(name: name, arguments: try arguments(constant: constant), line: line, column: column))
        }
        return directives
    }

    /// `(name: Type = default @directive, …)`, if a definition list starts here: a field's
    /// arguments in a schema.
    mutating func inputValueDefinitions() throws(GraphQLLexer.Failure) -> [GraphQLInputValue] {
        guard take("(") else { return [] }
        var values: [GraphQLInputValue] = []
        while !take(")") {
            skipDescription()
            values.append(try inputValueDefinition())
        }
        return values
    }

    /// `name: Type = default @directive`.
    mutating func inputValueDefinition() throws(GraphQLLexer.Failure) -> GraphQLInputValue {
        let (line, column) = (current.line, current.column)
        let name = try expectName("an argument name")
        try expect(":")
        let type = try typeReference()
        let defaultValue = take("=") ? try value(constant: true) : nil
        let deprecated = try directives(constant: true).contains { $0.name == "deprecated" }
        return GraphQLInputValue(name: name, type: type, defaultValue: defaultValue, line: line, column: column, deprecated: deprecated)
    }
}
