import StubCore

extension GraphQLLexer {
    /// Reads a document with `read`, over the reader `make` gives for its tokens; a lexical or a
    /// grammar failure becomes an error naming the file, line and column.
    static func read<Reader>(_ text: String, file: String, make: (GraphQLTokens) -> Reader,
                             _ read: (inout Reader) throws(Failure) -> Void) -> Result<Reader, GraphQLDocumentError> {
        switch tokens(text) {
        case .failure(let f): return .failure(GraphQLDocumentError(file: file, line: f.line, column: f.column, message: f.message))
        case .success(let list):
            var reader = make(GraphQLTokens(list))
            do {
                try read(&reader)
            } catch {
                return .failure(GraphQLDocumentError(file: file, line: error.line, column: error.column, message: error.message))
            }
            return .success(reader)
        }
    }
}
