import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line of `check` and `routes`, parsed: either help was asked for, or the stub
/// directory (the one positional, else `STUBD_STUBS`, else `Stubs`) with the switches and
/// valued options given.
enum DirectoryCommandLine: Equatable {
    case help
    case run(Values)

    /// What a command runs with.
    struct Values: Equatable {
        var directory: String
        var switches: Set<String> = []
        var values: [String: String] = [:]
    }

    /// Parses `arguments` and runs `body` with the values; prints `usage` for help (exit 0) and
    /// with the error for a bad command line (exit 2).
    static func run(_ arguments: [String], usage: String, switches known: Set<String> = [], values valued: Set<String> = [],
                    _ body: (Values) -> Int32) -> Int32 {
        switch parse(arguments, switches: known, values: valued) {
        case .failure(let error):
            StubdCommand.fail(error.message, usage: usage)
            return 2
        case .success(.help):
            print(usage)
            return 0
        case .success(.run(let values)): return body(values)
        }
    }

    /// Parses `arguments` for a command taking the switches and valued options named.
    static func parse(_ arguments: [String], switches known: Set<String> = [], values valued: Set<String> = []) -> Result<DirectoryCommandLine, UsageError> {
        var scanner = ArgumentScanner(arguments)
        var given = Values(directory: "")
        while let option = scanner.nextOption() {
            if option == "-h" || option == "--help" { return .success(.help) }
            if known.contains(option) {
                given.switches.insert(option)
            } else if valued.contains(option) {
                do { given.values[option] = try scanner.value(for: option) } catch { return .failure(error) }
            } else {
                return .failure(ArgumentScanner.unknown(option))
            }
        }
        guard scanner.positionals.count <= 1 else {
            return .failure(UsageError(message: "expected at most one directory, got \(scanner.positionals.count) arguments"))
        }
        let fromEnvironment = getenv("STUBD_STUBS").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        given.directory = scanner.positionals.first ?? fromEnvironment ?? "Stubs"
        return .success(.run(given))
    }
}
