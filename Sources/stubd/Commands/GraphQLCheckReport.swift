#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubGraphQL
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd check DIR --graphql SCHEMA`: prints each problem on standard output and a summary; exits
/// 1 on any problem (and on a warning with --strict).
enum GraphQLCheckReport {
    static func run(catalog: StubCatalog, directory: String, schemaFile: String, strict: Bool) -> Int32 {
        guard let text = try? String(contentsOfFile: schemaFile, encoding: .utf8) else {
            StubdCommand.printError("\(schemaFile): cannot read the GraphQL schema")
            return 1
        }
        let schema: GraphQLSchema
        switch GraphQLSchema.parse(text, file: schemaFile) {
        case .success(let parsed): schema = parsed
        case .failure(let error):
            StubdCommand.printError("\(error)")
            return 1
        }
        let check = GraphQLStubCheck(catalog: catalog, schema: schema)
        for warning in check.warnings { StubdCommand.printError("warning: \(warning)") }
        for problem in check.problems { StandardStreams.write(problem + "\n", to: STDOUT_FILENO) }
        if !check.problems.isEmpty {
            StubdCommand.printError("\(directory): \(check.problems.count) problem(s) against \(schemaFile)")
            return 1
        }
        if strict && !check.warnings.isEmpty {
            StubdCommand.printError("\(directory): \(check.warnings.count) warning(s), failing because of --strict")
            return 1
        }
        print("\(directory): OK, \(check.operationsChecked) operations and \(check.bodiesChecked) bodies true to \(schemaFile)")
        return 0
    }
}
