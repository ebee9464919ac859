/// fish: one `complete` line per command and per option, each with its condition.
extension ShellCompletion {
    static func fish() -> String {
        var lines = [header(.fish), "# Installed as /usr/share/fish/vendor_completions.d/stubd.fish.", "complete -c stubd -f"]
        for command in CommandTable.all {
            lines.append("complete -c stubd -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        for command in CommandTable.all {
            // serve is also what a line with no command runs.
            let condition = command.name == "serve"
                ? fishQuoted("__fish_use_subcommand; or __fish_seen_subcommand_from serve")
                : fishQuoted("__fish_seen_subcommand_from \(command.name)")
            if !command.words.isEmpty {
                lines.append("complete -c stubd -n \(condition) -a \(fishQuoted(command.words.joined(separator: " ")))")
            }
            for option in command.options {
                let names = option.names.map { $0.hasPrefix("--") ? "-l \($0.dropFirst(2))" : "-s \($0.dropFirst())" }.joined(separator: " ")
                let value = option.valueName == nil ? "" : option.takesPath ? " -r -F" : " -x"
                lines.append("complete -c stubd -n \(condition) \(names)\(value) -d \(fishQuoted(shortHelp(option.help)))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` between single quotes for fish, where only `\\` and `\'` are escapes.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
