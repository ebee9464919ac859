/// One of the checks of an operation document against its schema: each collects its problems as
/// graphql-core words them, placed `file:line:column:` in the document.
protocol GraphQLDocumentRule {
    /// The document checked.
    var document: GraphQLOperations { get }
    /// What the check found, in the order it found it.
    var problems: [String] { get set }
}

extension GraphQLDocumentRule {
    /// Notes `message` at `line`:`column` of the document.
    mutating func add(_ line: Int, _ column: Int, _ message: String) {
        problems.append("\(document.file):\(line):\(column): \(message)")
    }
}
