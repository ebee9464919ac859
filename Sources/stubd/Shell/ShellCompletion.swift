import StubServer

/// The completion scripts `stubd completions SHELL` prints, made from the command table and, for
/// `serve`, the settings table: a command or setting added there is completed without anyone
/// editing a script, and packages install what the binary prints.
enum ShellCompletion {
    /// The shells there is a script for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The script for `shell`.
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// The first line of each script: where it comes from, so nobody edits it by hand.
    static func header(_ shell: Shell) -> String {
        "# \(shell.rawValue) completion for stubd \(StubdVersion.current), made by `stubd completions \(shell.rawValue)`; do not edit."
    }

    /// The commands' options as a shell completes them: each spelling once, in table order.
    static func optionNames(_ command: StubdSubcommand) -> [String] {
        var seen = Set<String>()
        return command.options.flatMap(\.names).filter { seen.insert($0).inserted }
    }

    /// `text` between single quotes for sh, bash and zsh.
    static func shQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// A help line cut at its first clause and kept to one short line, for the shells that show
    /// a description beside each candidate.
    static func shortHelp(_ help: String) -> String {
        var line = help.split(separator: ";").first.map(String.init) ?? help
        if line.count > 80 { line = String(line.prefix(77)) + "..." }
        return line
    }
}
