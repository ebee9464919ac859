/// The table written out for people: `--help` lines (the README's table is checked against
/// `--print-settings`, which carries the same words).
extension Setting {
    /// `--port PORT`, `--no-admin`.
    var usageName: String { valueName.map { "\(flag) \($0)" } ?? flag }

    /// The help sentence with its default, variable and aliases: what `--help` and the README say.
    var fullHelp: String {
        var notes: [String] = []
        if valueName != nil, let defaultText { notes.append("default \(defaultText)") }
        notes.append("env \(variable)\(valueName == nil ? "=1" : "")")
        if !aliases.isEmpty { notes.append("also \(aliases.joined(separator: ", "))") }
        return "\(help) (\(notes.joined(separator: "; ")))"
    }

    /// The setting's lines in `--help`: the name padded to a column, the text wrapped at 100.
    var helpLines: [String] {
        let column = 26
        let name = "  " + usageName
        var lines: [String] = []
        var current = name.count + 1 > column ? name : name + String(repeating: " ", count: column - name.count)
        if name.count + 1 > column {
            lines.append(current)
            current = String(repeating: " ", count: column)
        }
        var first = true
        for word in fullHelp.split(separator: " ") {
            if !first && current.count + 1 + word.count > 100 {
                lines.append(current)
                current = String(repeating: " ", count: column) + word
            } else {
                current += (first ? "" : " ") + word
            }
            first = false
        }
        lines.append(current)
        return lines
    }

    /// The help of a whole table.
    static func helpText(_ settings: [Setting]) -> String {
        settings.flatMap(\.helpLines).joined(separator: "\n")
    }
}
