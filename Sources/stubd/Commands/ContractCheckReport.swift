import StubContract
import StubCore
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd check DIR --openapi SPEC`: drift between the stubs and the document, in `check`'s format.
enum ContractCheckReport {
    static func run(catalog: StubCatalog, directory: String, spec: String, specRoot: String?, strict: Bool, variants: Int) -> Int32 {
        let document: OpenAPIDocument
        do { document = try OpenAPIDocument(path: spec, specRoot: specRoot) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let drift = DriftCheck(catalog: catalog, document: document)
        for problem in drift.problems { StandardStreams.write(problem + "\n", to: STDOUT_FILENO) }
        for warning in drift.warnings { StandardStreams.write((strict ? "" : "warning: ") + warning + "\n", to: strict ? STDOUT_FILENO : STDERR_FILENO) }
        // The document's own examples that break its schemas are the document's to fix, not drift.
        for line in drift.documentExamples { StandardStreams.write("warning: " + line + "\n", to: STDERR_FILENO) }
        let failures = drift.problems.count + (strict ? drift.warnings.count : 0)
        guard failures == 0 else {
            StubdCommand.printError("\(directory): \(failures) problem(s) against \(spec)\(strict && !drift.warnings.isEmpty ? " (warnings count, --strict)" : "")")
            return 1
        }
        let own = drift.documentExamples.isEmpty ? "" : "; \(drift.documentExamples.count) problem(s) in the document's own examples"
        print("\(directory): OK, \(catalog.routes.count) routes, \(variants) variants, true to \(spec) (\(document.operations.count) operations\(own))")
        return 0
    }
}
