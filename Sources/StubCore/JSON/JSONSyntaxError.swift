/// A JSON syntax error with the line and column where reading stopped.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// 1-based line of the offending character.
    package var line: Int
    /// 1-based column of the offending character.
    package var column: Int
    /// What was expected and what was found.
    package var message: String

    /// Makes an error at a position.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}
