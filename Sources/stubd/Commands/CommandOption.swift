/// An option of a command as its help lists it: `--tls-dir DIR  Where the files go`.
struct CommandOption: Sendable, Equatable {
    /// Its spellings (`-h`, `--help`).
    let names: [String]
    /// The placeholder of its value (`DIR`); nil for a switch.
    let valueName: String?
    /// The first line of its help.
    let help: String

    /// Whether its value is a path, so that a shell completes file names after it.
    var takesPath: Bool {
        guard let valueName else { return false }
        return ["DIR", "FILE", "SPEC", "SCHEMA", "PATH"].contains { valueName.contains($0) }
    }

    /// The options of a help text: each line of its OPTIONS section that starts with a dash, the
    /// names before the first run of two spaces and the help after it. Lines that continue a
    /// help, and anything outside the section, are left alone.
    static func parse(usage: String) -> [CommandOption] {
        var options: [CommandOption] = []
        var inOptions = false
        for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("OPTIONS:") { inOptions = true; continue }
            if inOptions && !line.isEmpty && !line.hasPrefix(" ") { inOptions = false }
            let trimmed = line.drop { $0 == " " }
            guard inOptions, trimmed.hasPrefix("-") else { continue }
            let (left, help) = split(trimmed)
            var names: [String] = []
            var valueName: String?
            for spelling in left.split(separator: ",") {
                let parts = spelling.split(separator: " ")
                guard let name = parts.first, name.hasPrefix("-") else { continue }
                names.append(String(name))
                if parts.count > 1 { valueName = parts.dropFirst().joined(separator: " ") }
            }
            if !names.isEmpty { options.append(CommandOption(names: names, valueName: valueName, help: help)) }
        }
        return options
    }

    /// The text before the first run of two spaces, and the rest trimmed.
    private static func split(_ line: Substring) -> (String, String) {
        guard let gap = line.firstRange(of: "  ") else { return (String(line), "") }
        return (String(line[..<gap.lowerBound]), String(line[gap.upperBound...].drop { $0 == " " }))
    }
}
