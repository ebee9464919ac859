/// One command of `stubd`: its name, the arguments it takes, one line on what it does, its own
/// help text and what runs it. `stubd help`, the man page and the shell completions are all made
/// from this table, so a command added here shows up in each of them.
struct StubdSubcommand: Sendable {
    /// The word after `stubd` (`import-har`).
    let name: String
    /// What follows the name in a synopsis (`FILE.har --stubs DIR`).
    let synopsis: String
    /// One line on what it does, for `stubd help` and the man page.
    let summary: String
    /// Words that may follow the name (`init` for `tls`, `bash zsh fish` for `completions`).
    var words: [String] = []
    /// False for a command whose arguments are options, a URL or nothing: no file names offered.
    var takesFiles = true
    /// The command's own `--help` text.
    let usage: @Sendable () -> String
    /// Runs it with the arguments after its name; returns the exit status.
    let run: @Sendable ([String]) -> Int32

    /// The options its help lists, with the placeholder of those that take a value. `serve`'s
    /// come from the settings table itself rather than from its help text (without the older
    /// spellings, which still work but are not offered).
    var options: [CommandOption] {
        if name == "serve" {
            return ServeSettings.all.map { CommandOption(names: [$0.flag], valueName: $0.valueName, help: $0.help) }
                + [CommandOption(names: ["--print-settings"], valueName: nil, help: "Print each setting's value and where it came from (JSON), then exit"),
                   CommandOption(names: ["-h", "--help"], valueName: nil, help: "Show this help")]
        }
        return CommandOption.parse(usage: usage())
    }
}

/// Every command, in the order `stubd help` lists them.
enum CommandTable {
    static let all: [StubdSubcommand] = [
        StubdSubcommand(name: "serve", synopsis: "[OPTIONS]", summary: "Serve a stub directory (default)", takesFiles: false,
                        usage: { ServeCommand.usage }, run: ServeCommand.run),
        StubdSubcommand(name: "check", synopsis: "[DIR] [--openapi SPEC] [--graphql SCHEMA] [--strict]",
                        summary: "Validate a stub directory and print every problem",
                        usage: { CheckCommand.usage }, run: CheckCommand.run),
        StubdSubcommand(name: "routes", synopsis: "[DIR]", summary: "Print the routes of a stub directory as a table",
                        usage: { RoutesCommand.usage }, run: RoutesCommand.run),
        StubdSubcommand(name: "probe", synopsis: "URL", summary: "GET a URL and exit 0 on a 2xx answer (container health checks)", takesFiles: false,
                        usage: { ProbeCommand.usage }, run: ProbeCommand.run),
        StubdSubcommand(name: "tls", synopsis: "init [--tls-dir DIR] [--host NAME ...]",
                        summary: "Make a local certificate authority and a server certificate for HTTPS", words: ["init"],
                        usage: { TLSCommand.usage }, run: TLSCommand.run),
        StubdSubcommand(name: "import-har", synopsis: "FILE.har --stubs DIR", summary: "Turn a HAR capture into stubs (secrets redacted)",
                        usage: { ImportHARCommand.usage }, run: ImportHARCommand.run),
        StubdSubcommand(name: "import-postman", synopsis: "COLLECTION.json --stubs DIR",
                        summary: "Turn a Postman collection's saved examples into stubs",
                        usage: { ImportPostmanCommand.usage }, run: ImportPostmanCommand.run),
        StubdSubcommand(name: "import-pact", synopsis: "PACT.json --stubs DIR", summary: "Turn a Pact contract's interactions into stubs",
                        usage: { ImportPactCommand.usage }, run: ImportPactCommand.run),
        StubdSubcommand(name: "export-pact", synopsis: "--consumer NAME --provider NAME > pact.json",
                        summary: "Write a running stubd's journal as a Pact contract", takesFiles: false,
                        usage: { ExportPactCommand.usage }, run: ExportPactCommand.run),
        StubdSubcommand(name: "import-openapi", synopsis: "SPEC --stubs DIR", summary: "Make stubs from an OpenAPI document",
                        usage: { ImportOpenAPICommand.usage }, run: ImportOpenAPICommand.run),
        StubdSubcommand(name: "record", synopsis: "--upstream URL --stubs DIR",
                        summary: "Proxy to a real API and write what passes through as stubs", takesFiles: false,
                        usage: { RecordCommand.usage }, run: RecordCommand.run),
        StubdSubcommand(name: "completions", synopsis: "bash|zsh|fish", summary: "Print the shell completion script for bash, zsh or fish",
                        words: ShellCompletion.Shell.allCases.map(\.rawValue),
                        usage: { CompletionsCommand.usage }, run: CompletionsCommand.run),
        StubdSubcommand(name: "manpage", synopsis: "", summary: "Print the manual page stubd(1) in roff", takesFiles: false,
                        usage: { ManpageCommand.usage }, run: ManpageCommand.run),
    ]

    /// The command called `name`, if there is one.
    static func named(_ name: String) -> StubdSubcommand? {
        all.first { $0.name == name }
    }
}
