import StubCore
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dispatches `stubd <command>`; with no command it serves.
enum StubdCommand {
    static let usage = """
    OVERVIEW: stubd serves JSON stub directories over a real HTTP socket for testing API clients.

    USAGE: stubd [serve] [OPTIONS]
           stubd check [DIR] [--openapi SPEC] [--strict]
           stubd routes [DIR]
           stubd probe URL
           stubd tls init [--tls-dir DIR] [--host NAME ...]
           stubd import-har FILE.har --stubs DIR
           stubd import-postman COLLECTION.json --stubs DIR
           stubd import-pact PACT.json --stubs DIR
           stubd export-pact --consumer NAME --provider NAME > pact.json
           stubd import-openapi SPEC --stubs DIR
           stubd record --upstream URL --stubs DIR

    COMMANDS:
      serve                   Serve a stub directory (default)
      check                   Validate a stub directory and print every problem
      routes                  Print the routes of a stub directory as a table
      probe                   GET a URL and exit 0 on a 2xx answer (container health checks)
      tls init                Make a local certificate authority and a server certificate for HTTPS
      import-har              Turn a HAR capture into stubs (secrets redacted)
      import-postman          Turn a Postman collection's saved examples into stubs
      import-pact             Turn a Pact contract's interactions into stubs
      export-pact             Write a running stubd's journal as a Pact contract
      import-openapi          Make stubs from an OpenAPI document
      record                  Proxy to a real API and write what passes through as stubs

    OPTIONS:
      --version               Print the version
      -h, --help              Show help; `stubd <command> --help` for a command's options
    """

    static func run(_ arguments: [String]) -> Int32 {
        var rest = arguments
        let command = rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "serve"
        if rest.first == command { rest.removeFirst() }
        if arguments.first == "--version" { print("stubd \(StubdVersion.current) (libmicrohttpd \(StubServer.libmicrohttpdVersion))"); return 0 }
        if arguments.first == "-h" || arguments.first == "--help" || arguments.first == "help" { print(usage); return 0 }
        switch command {
        case "serve": return ServeCommand.run(rest)
        case "check": return CheckCommand.run(rest)
        case "routes": return RoutesCommand.run(rest)
        case "probe": return ProbeCommand.run(rest)
        case "tls": return TLSCommand.run(rest)
        case "import-har": return ImportHARCommand.run(rest)
        case "import-postman": return ImportPostmanCommand.run(rest)
        case "import-pact": return ImportPactCommand.run(rest)
        case "export-pact": return ExportPactCommand.run(rest)
        case "import-openapi": return ImportOpenAPICommand.run(rest)
        case "record": return RecordCommand.run(rest)
        default:
            fail("unknown command \"\(command)\"", usage: usage)
            return 2
        }
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
