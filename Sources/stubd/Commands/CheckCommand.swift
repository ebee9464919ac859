import StubCore
import StubServer

/// `stubd check [DIR]`: validate a stub directory, print every problem, exit 1 if there is any.
enum CheckCommand {
    static let usage = StubDirectoryArgument.usage(
        command: "check", overview: "Validate a stub directory and print every problem as `file: json.path: message`.",
        options: ["--openapi SPEC          Also check every JSON body against the OpenAPI document SPEC (JSON or YAML)",
                  "--spec-root DIR        Folder that the document's file $refs may reach (default: its folder)",
                  "--strict              Treat warnings (links leaving the stub directory; with --openapi, routes,",
                  "                      statuses and operations only one side has) as problems"])

    static func run(_ arguments: [String]) -> Int32 {
        guard let parsed = StubDirectoryArgument.parse(arguments, usage: usage, flags: ["--strict"], values: ["--openapi", "--spec-root"]) else { return 2 }
        let directory = parsed.directory
        if directory.isEmpty { print(usage); return 0 }
        switch StubLoader.load(directory: directory) {
        case .success(let catalog):
            let variants = catalog.routes.reduce(0) { $0 + $1.variants.count }
            for warning in catalog.warnings { StubdCommand.printError("warning: \(warning)") }
            if parsed.flags.contains("--strict") && !catalog.warnings.isEmpty {
                StubdCommand.printError("\(directory): \(catalog.warnings.count) warning(s), failing because of --strict")
                return 1
            }
            if let spec = parsed.values["--openapi"] {
                return ContractCheckReport.run(catalog: catalog, directory: directory, spec: spec, specRoot: parsed.values["--spec-root"],
                                              strict: parsed.flags.contains("--strict"), variants: variants)
            }
            print("\(directory): OK, \(catalog.routes.count) routes, \(variants) variants")
            return 0
        case .failure(let failure):
            StandardStreams.write(failure.description + "\n", to: STDOUT_FILENO)
            StubdCommand.printError("\(directory): \(failure.problems.count) problem(s)")
            return 1
        }
    }
}

/// The optional `[DIR]` argument shared by `check` and `routes`.
enum StubDirectoryArgument {
    /// The help text of a command that takes only `[DIR]`.
    static func usage(command: String, overview: String, options: [String] = []) -> String {
        let extra = options.map { "  \($0)\n" }.joined()
        return """
        OVERVIEW: \(overview)

        USAGE: stubd \(command) [DIR]

        ARGUMENTS:
          DIR                     Stub directory (default ./Stubs, or STUBD_STUBS)

        OPTIONS:
        \(extra)  -h, --help              Show this help
        """
    }

    /// The directory ("" when help was asked for) and the `flags` given, nil after a usage error
    /// (already printed).
    static func parse(_ arguments: [String], usage: String, flags known: Set<String> = [], values: Set<String> = [])
        -> (directory: String, flags: Set<String>, values: [String: String])? {
        var scanner = ArgumentScanner(arguments)
        var flags: Set<String> = []
        var given: [String: String] = [:]
        while let option = scanner.nextOption() {
            if option == "-h" || option == "--help" { return ("", flags, given) }
            if known.contains(option) { flags.insert(option); continue }
            if values.contains(option) {
                do { given[option] = try scanner.value(for: option) } catch {
                    StubdCommand.fail(error.message, usage: usage)
                    return nil
                }
                continue
            }
            StubdCommand.fail("unknown option \(option)", usage: usage)
            return nil
        }
        guard scanner.positionals.count <= 1 else {
            StubdCommand.fail("expected at most one directory, got \(scanner.positionals.count) arguments", usage: usage)
            return nil
        }
        return (scanner.positionals.first ?? getenv("STUBD_STUBS").map { String(cString: $0) } ?? "Stubs", flags, given)
    }
}
