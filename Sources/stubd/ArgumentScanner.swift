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

    /// An integer value within `range`.
    mutating func int(for option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(message: "\(option) expects a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return n
    }

    /// A duration in milliseconds: `1500`, `1500ms`, `2s` or `5m`.
    mutating func duration(for option: String) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let ms = ArgumentScanner.parseDuration(text) else {
            throw UsageError(message: "\(option) expects a duration up to one day like 1500, 1500ms, 2s or 5m, got \"\(text)\"")
        }
        return ms
    }

    static func parseDuration(_ text: String) -> Int? {
        let units: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        let limit = Limits.maxDurationMs
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            guard let n = Int(text.dropLast(suffix.count)), n >= 0 else { return nil }
            let (ms, overflow) = n.multipliedReportingOverflow(by: factor)
            return overflow || ms > limit ? nil : ms
        }
        guard let n = Int(text), n >= 0, n <= limit else { return nil }
        return n
    }

    /// A size in bytes: `1048576`, `512k`/`512KiB`, `16m`/`16MiB` or `1g`/`1GiB` (powers of 1,024),
    /// from 1 byte to 4 GiB.
    mutating func size(for option: String) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let bytes = ArgumentScanner.parseSize(text) else {
            throw UsageError(message: "\(option) expects a size up to 4 GiB like 1048576, 512k or 16MiB, got \"\(text)\"")
        }
        return bytes
    }

    static func parseSize(_ text: String) -> Int? {
        let units: [(String, Int)] = [("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
        let lower = text.lowercased()
        var digits = Substring(lower)
        var factor = 1
        if let unit = units.first(where: { lower.hasSuffix($0.0) }) {
            digits = lower.dropLast(unit.0.count)
            factor = unit.1
        }
        guard let n = Int(digits), n > 0 else { return nil }
        let (bytes, overflow) = n.multipliedReportingOverflow(by: factor)
        return overflow || bytes > 4 << 30 ? nil : bytes
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
