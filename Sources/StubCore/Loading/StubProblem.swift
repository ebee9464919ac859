/// One thing wrong with a stub directory, printed as `file: json.path: what was expected, what was found`.
public struct StubProblem: Sendable, Equatable, CustomStringConvertible, Error {
    /// Where in the file the problem is.
    public enum Location: Sendable, Equatable {
        /// The file as a whole (missing, unreadable, misnamed).
        case file
        /// A JSON path inside the file, like `variants.401.when.query`.
        case path(String)
        /// A line and column, for JSON syntax errors.
        case position(line: Int, column: Int)
    }

    /// The file, relative to the stub directory.
    public var file: String
    /// Where in the file.
    public var location: Location
    /// What was expected and what was found.
    public var message: String

    /// Makes a problem.
    public init(file: String, location: Location, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// The line `stubd check` prints.
    public var description: String {
        switch location {
        case .file: return "\(file): \(message)"
        case .path(let p): return "\(file): \(p.isEmpty ? "(top level)" : p): \(message)"
        case .position(let line, let column): return "\(file):\(line):\(column): \(message)"
        }
    }
}

/// A stub directory that did not load, with every problem found.
public struct StubLoadFailure: Error, Sendable, CustomStringConvertible {
    /// All problems, in directory order.
    public var problems: [StubProblem]

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
