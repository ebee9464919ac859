/// `stubd completions bash|zsh|fish`: print the shell's completion script (packages and
/// `make install` write it where the shell looks; `source <(stubd completions bash)` for a try).
enum CompletionsCommand {
    static let usage = """
    OVERVIEW: Print the completion script for a shell, made from stubd's commands and settings.

    USAGE: stubd completions bash|zsh|fish

    Where each goes (what make install and the Debian package do):
      bash   PREFIX/share/bash-completion/completions/stubd
      zsh    PREFIX/share/zsh/vendor-completions/_stubd (or site-functions/_stubd; on $fpath)
      fish   PREFIX/share/fish/vendor_completions.d/stubd.fish
    Or for this shell only: source <(stubd completions bash)

    OPTIONS:
      -h, --help              Show this help
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        guard arguments.count == 1, let shell = ShellCompletion.Shell(rawValue: arguments[0]) else {
            let got = arguments.isEmpty ? "nothing" : "\"\(arguments.joined(separator: " "))\""
            StubdCommand.fail("expected one shell, bash, zsh or fish; got \(got)", usage: usage)
            return 2
        }
        print(ShellCompletion.script(for: shell), terminator: "")
        return 0
    }
}
