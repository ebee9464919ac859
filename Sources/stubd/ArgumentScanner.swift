import StubCore

/// A bad command line: printed with the command's usage, exit status 2.
struct UsageError: Error {
    let message: String
}

/// Reads `--name value`, `--name=value`, flags and positionals from the command line, in order.
struct ArgumentScanner {
    private var arguments: [String]
    private(set) var positionals: [String] = []

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next option name, or nil when none is left; positionals are set aside as they are met.
    mutating func nextOption() -> String? {
        while let first = arguments.first {
            arguments.removeFirst()
            if first == "--" {
                positionals += arguments
                arguments = []
                return nil
            }
            if first.hasPrefix("-") && first.count > 1 {
                if let eq = first.firstIndex(of: "="), first.hasPrefix("--") {
                    arguments.insert(String(first[first.index(after: eq)...]), at: 0)
                    pendingInlineValue = true
                    return String(first[..<eq])
                }
                pendingInlineValue = false
                return first
            }
            positionals.append(first)
        }
        return nil
    }

    private var pendingInlineValue = false

    /// The value of the option just read.
    mutating func value(for option: String) throws(UsageError) -> String {
        guard let v = arguments.first, pendingInlineValue || !v.hasPrefix("--") else {
            throw UsageError(message: "\(option) needs a value")
        }
        arguments.removeFirst()
        pendingInlineValue = false
        return v
    }

    /// Fails when a flag is not one the command knows.
    static func unknown(_ option: String) -> UsageError {
        UsageError(message: "unknown option \(option)")
    }
}

extension ArgumentScanner {
    /// The value of a `--service NAME` option: one folder name inside the stub directory, never a
    /// path that leaves it (`../x`, `a/b`) or a hidden or over-long name.
    mutating func folderName(for option: String) throws(UsageError) -> String {
        let name = try value(for: option)
        guard !name.isEmpty, name.count <= 100, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0") else {
            throw UsageError(message: "\(option) takes a folder name (no '/', not starting with '.', at most 100 characters), found \"\(name.prefix(60))\"")
        }
        return name
    }
}
