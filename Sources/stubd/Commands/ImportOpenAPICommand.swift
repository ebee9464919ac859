import StubCapture
import StubContract
import StubCore
import StubServer

/// `stubd import-openapi SPEC --stubs DIR`: stubs from an OpenAPI document, checked against it.
enum ImportOpenAPICommand {
    static let usage = """
    OVERVIEW: Make stubs from an OpenAPI 3.0 or 3.1 document (JSON or YAML).

    USAGE: stubd import-openapi SPEC --stubs DIR [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory to write into (created if missing)
      --service NAME          Service folder name (default: from the document's title)
      --all-keys              Fill optional keys too in bodies made from schemas
      --overwrite             Replace existing route folders and _service.json
      -h, --help              Show this help
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        var stubs = "", service: String?, allKeys = false, overwrite = false
        var scanner = ArgumentScanner(arguments)
        do throws(UsageError) {
            while let option = scanner.nextOption() {
                switch option {
                case "--stubs": stubs = try scanner.value(for: option)
                case "--service": service = try scanner.value(for: option)
                case "--all-keys": allKeys = true
                case "--overwrite": overwrite = true
                default: throw ArgumentScanner.unknown(option)
                }
            }
            guard scanner.positionals.count == 1 else { throw UsageError(message: "expected one OpenAPI document") }
            guard !stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let spec = scanner.positionals[0]
        let document: OpenAPIDocument
        do { document = try OpenAPIDocument(path: spec) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let importer = OpenAPIImporter(document, service: service, allKeys: allKeys)
        do { try StubTreeWriter(root: stubs).write(files: importer.files, overwrite: overwrite) } catch {
            StubdCommand.printError("stubd: \(stubs)/\(error)")
            return 1
        }
        print("Imported \(document.operations.count) operation(s) of \(document.title) into \(stubs)/\(importer.service):")
        for line in importer.summary { print("  \(line)") }
        for line in importer.skipped { StubdCommand.printError("stubd: skipped \(line)") }
        switch StubLoader.load(directory: stubs) {
        case .success(let catalog):
            let drift = DriftCheck(catalog: catalog, document: document)
            for problem in drift.problems { StubdCommand.printError("stubd: \(problem)") }
            print("\(stubs): OK, \(catalog.routes.count) routes (stubd check)\(drift.problems.isEmpty ? ", true to \(spec)" : "")")
            return drift.problems.isEmpty ? 0 : 1
        case .failure(let failure):
            StubdCommand.printError("stubd: the imported stubs do not load together with what was in \(stubs):\n\(failure)")
            return 1
        }
    }
}
