import StubCore
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dispatches `stubd <command>` through the command table; with no command it serves.
enum StubdCommand {
    /// `stubd help`: made from the command table, as the man page and the completions are.
    static var usage: String {
        let synopses = CommandTable.all.map { "stubd \($0.name == "serve" ? "[serve]" : $0.name)\($0.synopsis.isEmpty ? "" : " " + $0.synopsis)" }
        let commands = CommandTable.all.map { command in
            let name = "  " + command.name + (command.name == "tls" ? " init" : "")
            return name + String(repeating: " ", count: max(2, 26 - name.count)) + command.summary
        }
        return """
        OVERVIEW: \(overview)

        USAGE: \(synopses.joined(separator: "\n       "))

        COMMANDS:
        \(commands.joined(separator: "\n"))

        OPTIONS:
          --version               Print the version
          -h, --help              Show help; `stubd <command> --help` for a command's options
        """
    }

    /// What stubd is, in one line: the first line of `stubd help` and the man page's NAME.
    static let overview = "stubd serves JSON stub directories over a real HTTP socket for testing API clients."

    static func run(_ arguments: [String]) -> Int32 {
        var rest = arguments
        let command = rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "serve"
        if rest.first == command { rest.removeFirst() }
        if arguments.first == "--version" { print("stubd \(StubdVersion.current) (libmicrohttpd \(StubServer.libmicrohttpdVersion))"); return 0 }
        if arguments.first == "-h" || arguments.first == "--help" || arguments.first == "help" { print(usage); return 0 }
        guard let subcommand = CommandTable.named(command) else {
            fail("unknown command \"\(command)\"", usage: usage)
            return 2
        }
        return subcommand.run(rest)
    }

    /// Prints `error: message`, a blank line and the usage to standard error.
    static func fail(_ message: String, usage: String) {
        StandardStreams.write("error: \(TerminalText.escaped(message, keepingLines: true))\n\n\(usage)\n", to: STDERR_FILENO)
    }

    /// Prints a line to standard error.
    static func printError(_ text: String) {
        // Messages quote paths, values and library errors: none may drive the terminal.
        StandardStreams.write(TerminalText.escaped(text, keepingLines: true) + "\n", to: STDERR_FILENO)
    }
}
