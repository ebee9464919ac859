import StubCapture
import StubContract
import StubCore
import StubServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd import-openapi SPEC --stubs DIR`: stubs from an OpenAPI document, checked against it.
/// An operation or response that cannot be stubbed true to the document is reported and left
/// out; the rest is written together: the files are put in place, loaded with what was there and
/// checked against the document, and taken back if any of that fails.
enum ImportOpenAPICommand {
    static let usage = """
    OVERVIEW: Make stubs from an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (JSON or YAML).

    USAGE: stubd import-openapi SPEC --stubs DIR [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory to write into (created if missing)
      --service NAME          Service folder name (default: from the document's title)
      --all-keys              Fill optional keys too in bodies made from schemas
      --collections           One collection folder per REST resource (/pets with GET or POST,
                              /pets/{id} with GET and PUT, PATCH or DELETE), seeded from the
                              document's examples; says which became collections and why not
      --overwrite             Replace existing route folders and _service.json
      --spec-root DIR         Folder that file $refs may reach, and where a remote $ref's copy is
                              read from as DIR/HOST/PATH (default: the document's folder)
      --strict                Exit 1 when anything was skipped or warned about (still written)
      -h, --help              Show this help
    """

    struct Options {
        var stubs = "", service: String?, allKeys = false, overwrite = false, specRoot: String?, spec = "", strict = false, collections = false
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            switch option {
            case "--stubs": options.stubs = try scanner.value(for: option)
            case "--service": options.service = try scanner.folderName(for: option)
            case "--all-keys": options.allKeys = true
            case "--collections": options.collections = true
            case "--overwrite": options.overwrite = true
            case "--strict": options.strict = true
            case "--spec-root": options.specRoot = try scanner.value(for: option)
            default: throw ArgumentScanner.unknown(option)
            }
        }
        guard scanner.positionals.count == 1 else { throw UsageError(message: "expected one OpenAPI document") }
        guard !options.stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        options.spec = scanner.positionals[0]
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: Options
        do { options = try parse(arguments) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let document: OpenAPIDocument
        do { document = try OpenAPIDocument(path: options.spec, specRoot: options.specRoot) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let importer = OpenAPIImporter(document, service: options.service, allKeys: options.allKeys, collections: options.collections)
        for line in importer.skipped { StubdCommand.printError("stubd: skipped \(line)") }
        for line in importer.warnings { StubdCommand.printError("warning: \(line)") }
        guard importer.routeCount > 0 else {
            // A document with nothing to serve (only webhooks, operations without responses) is
            // not an error; operations stubd cannot serve are.
            let nothingToServe = document.operations.allSatisfy { $0.responses.isEmpty && $0.remoteRefs.isEmpty }
            StubdCommand.printError("stubd: \(options.spec): \(nothingToServe ? "no operation has a response to stub" : "no operation could be made into a route"); nothing written")
            return nothingToServe ? 0 : 1
        }
        let rootExisted = FileKind.of(options.stubs) == .directory
        let staged: StagedWrite
        do { staged = try StubTreeWriter(root: options.stubs).place(files: importer.files, overwrite: options.overwrite) } catch {
            StubdCommand.printError("stubd: \(options.stubs)/\(error)")
            return 1
        }
        guard let drift = check(options.stubs, document: document) else {
            staged.rollback()
            // Only a folder this run made, and left empty, goes: one holding anything stays, as it should.
            if !rootExisted { rmdir(options.stubs) }
            StubdCommand.printError("stubd: nothing written to \(options.stubs)")
            return 1
        }
        staged.commit()
        print("Imported \(importer.routeCount) route(s) from \(document.operations.count) operation(s) of \(document.title) into \(options.stubs)/\(importer.service)"
              + (importer.skipped.isEmpty ? ":" : ", \(importer.skipped.count) skipped:"))
        for line in importer.summary { print("  \(line)") }
        if options.collections {
            print("Collections: \(importer.collectionCount) of \(importer.collectionReport.count) candidate(s)" + (importer.collectionReport.isEmpty ? " (no path with an item path beside it)" : ":"))
            for line in importer.collectionReport { print("  \(line)") }
        }
        print("\(options.stubs): OK, \(drift.routes) routes (stubd check), true to \(options.spec)"
              + (drift.documentExamples.isEmpty ? "" : " but for \(drift.documentExamples.count) problem(s) in the document's own examples"))
        print("\(importer.routeCount) written, \(importer.skipped.count) skipped, \(importer.warnings.count) warning(s)")
        if options.strict && !(importer.skipped.isEmpty && importer.warnings.isEmpty) {
            StubdCommand.printError("stubd: --strict: \(importer.skipped.count) skipped and \(importer.warnings.count) warning(s) above")
            return 1
        }
        return 0
    }

    /// Loads the stub directory and checks it against the document: nil (after printing why)
    /// when it does not load or drifts, else the route count and the document's own bad examples
    /// (which the importer has already reported).
    static func check(_ stubs: String, document: OpenAPIDocument) -> (routes: Int, documentExamples: [String])? {
        switch StubLoader.load(directory: stubs) {
        case .success(let catalog):
            let drift = DriftCheck(catalog: catalog, document: document)
            for problem in drift.problems { StubdCommand.printError("stubd: \(problem)") }
            return drift.problems.isEmpty ? (catalog.routes.count, drift.documentExamples) : nil
        case .failure(let failure):
            StubdCommand.printError("stubd: the imported stubs do not load together with what was in \(stubs):\n\(failure)")
            return nil
        }
    }
}
