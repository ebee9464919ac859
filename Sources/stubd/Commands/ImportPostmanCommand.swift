#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore
import StubServer

/// `stubd import-postman COLLECTION.json --stubs DIR`: a Postman collection's saved examples
/// become stubs, one variant per example, named after it, secrets taken out as for a HAR.
enum ImportPostmanCommand {
    static let usage = """
    OVERVIEW: Turn a Postman collection's saved examples into stubs (format v2.0 and v2.1).

    USAGE: stubd import-postman COLLECTION.json --stubs DIR [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory to write into (created if missing)
      --environment FILE      A Postman environment export whose values fill {{variables}}
                              (over the collection's own)
      --service NAME          Service folder name (default: the host; needs one host)
      --host HOST             Import only requests to this host
      --base-path PATH        The service's basePath (default: the paths' common prefix)
      --no-templates          Keep literal paths (only :name path variables become {name})
      --overwrite             Replace existing route folders and _service.json files
      --redact NAME           Also redact headers, query parameters and fields named NAME
      --keep NAME             Keep NAME even though it looks like a secret
      -h, --help              Show this help

    Each request's examples become one route's variants, named after the example
    (`200-user-found`); `x-mock-response-name` and `x-mock-response-code` pick one, as on a
    Postman mock server. An example without a code takes the status its status text
    names; an undefined {{variable}} in the host stands for the base (with a warning).
    Credentials are redacted (headers, auth blocks, secret variables, token-shaped
    strings); other fields keep their values and JSON types.
    """

    static func parse(_ arguments: [String]) throws(UsageError) -> (options: CaptureImportOptions, environment: String?) {
        var options = CaptureImportOptions()
        var environment: String?
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            if try options.take(option, from: &scanner) { continue }
            guard option == "--environment" else { throw ArgumentScanner.unknown(option) }
            environment = try scanner.value(for: option)
        }
        try options.finish(scanner, what: "a Postman collection file")
        return (options, environment)
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: CaptureImportOptions
        let environmentFile: String?
        do { (options, environmentFile) = try parse(arguments) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        guard let collection = read(options.file) else { return 1 }
        var environment: (bytes: [UInt8], file: String)?
        if let file = environmentFile {
            guard let bytes = read(file) else { return 1 }
            environment = (bytes, file)
        }
        let result: PostmanReader.Result
        do { result = try PostmanReader.read(collection, file: options.file, environment: environment, policy: options.policy) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        for line in result.unstubbed { StubdCommand.printError("stubd: skipped \(line)") }
        for line in result.notes where line.hasPrefix("{{") { StubdCommand.printError("stubd: warning: \(line)") }
        let exchanges: [CapturedExchange]
        switch options.selected(result.exchanges, from: "collection") {
        case .success(let kept): exchanges = kept
        case .failure(let error):
            StubdCommand.printError("stubd: \(error.message)")
            return 2
        }
        // Examples are documentation: fields are secret by name and token shape, and keep their
        // type; the collection's credentials are scrubbed wherever they appear.
        var layoutOptions = options.layout
        layoutOptions.secretsByShape = true
        layoutOptions.knownSecrets = result.secrets
        let layout = CaptureLayout.build(exchanges, options: layoutOptions, policy: options.policy)
        return CaptureReport.writeAndCheck(layout, into: options.stubs, overwrite: options.overwrite, skipped: result.skipped, total: exchanges.count,
                                          notes: result.notes)
    }

    private static func read(_ file: String) -> [UInt8]? {
        switch StubFiles.read(file, limit: ImportHARCommand.maxHARBytes) {
        case .success(let bytes): return bytes
        case .failure(let error):
            StubdCommand.printError("stubd: \(file): \(error)")
            return nil
        }
    }
}
