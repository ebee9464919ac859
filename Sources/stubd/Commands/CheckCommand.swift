import StubCore
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd check [DIR]`: validate a stub directory, print every problem, exit 1 if there is any.
enum CheckCommand {
    static let usage = StubDirectoryArgument.usage(
        command: "check", overview: "Validate a stub directory and print every problem as `file: json.path: message`.",
        options: ["--openapi SPEC          Also check every JSON body against the OpenAPI document SPEC (JSON or YAML)",
                  "--spec-root DIR        Folder that the document's file $refs may reach, and where a remote $ref's",
                  "                      copy is read from as DIR/HOST/PATH (default: its folder)",
                  "--graphql SCHEMA       Also check each GraphQL operation route's operation.graphql and JSON bodies",
                  "                      against the schema SCHEMA (SDL, .graphqls)",
                  "--strict              Treat warnings (links leaving the stub directory; with --openapi, routes,",
                  "                      statuses and operations only one side has) as problems"])

    static func run(_ arguments: [String]) -> Int32 {
        DirectoryCommandLine.run(arguments, usage: usage, switches: ["--strict"], values: ["--openapi", "--spec-root", "--graphql"], check)
    }

    private static func check(_ parsed: DirectoryCommandLine.Values) -> Int32 {
        let directory = parsed.directory
        switch StubLoader.load(directory: directory) {
        case .success(let catalog):
            let variants = catalog.routes.reduce(0) { $0 + $1.variants.count }
            for warning in catalog.warnings { StubdCommand.printError("warning: \(warning)") }
            if parsed.switches.contains("--strict") && !catalog.warnings.isEmpty {
                StubdCommand.printError("\(directory): \(catalog.warnings.count) warning(s), failing because of --strict")
                return 1
            }
            if let schema = parsed.values["--graphql"] {
                let graphql = GraphQLCheckReport.run(catalog: catalog, directory: directory, schemaFile: schema,
                                                     strict: parsed.switches.contains("--strict"))
                if graphql != 0 || parsed.values["--openapi"] == nil { return graphql }
            }
            if let spec = parsed.values["--openapi"] {
                return ContractCheckReport.run(catalog: catalog, directory: directory, spec: spec, specRoot: parsed.values["--spec-root"],
                                              strict: parsed.switches.contains("--strict"), variants: variants)
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

/// The help text shared by `check` and `routes`, which take an optional `[DIR]`.
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
}
