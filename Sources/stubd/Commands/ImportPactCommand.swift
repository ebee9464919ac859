#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore
import StubServer

/// `stubd import-pact PACT.json --stubs DIR`: a provider's contract (Pact 2, 3 or 4) becomes
/// stubs, one variant per interaction, named after its provider state.
enum ImportPactCommand {
    static let usage = """
    OVERVIEW: Turn a Pact contract's interactions into stubs (Pact specification 2, 3 or 4).

    USAGE: stubd import-pact PACT.json --stubs DIR [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory to write into (created if missing)
      --service NAME          Service folder name (default: the provider's name)
      --base-path PATH        The service's basePath (default: the paths' common prefix)
      --overwrite             Replace existing route folders and _service.json files
      --redact NAME           Also redact headers, query parameters and fields named NAME
      --keep NAME             Keep NAME even though it looks like a secret
      -h, --help              Show this help

    Each interaction is a variant named after its provider state (else its description), kept
    as the variant's description: `x-mock-response-name: <state>` picks it, and a Pact
    verifier's state calls to POST /__stubd/pact/state serve it.
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        var layout = CaptureLayout.Options()
        var stubs = "", overwrite = false, policy = SecretPolicy()
        var scanner = ArgumentScanner(arguments)
        do throws(UsageError) {
            while let option = scanner.nextOption() {
                switch option {
                case "--stubs": stubs = try scanner.value(for: option)
                case "--service": layout.service = try scanner.folderName(for: option)
                case "--base-path": layout.basePath = try scanner.value(for: option)
                case "--overwrite": overwrite = true
                case "--redact": policy.redact(try scanner.value(for: option))
                case "--keep": policy.keep(try scanner.value(for: option))
                default: throw ArgumentScanner.unknown(option)
                }
            }
            guard scanner.positionals.count == 1 else { throw UsageError(message: "expected one Pact file") }
            guard !stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let file = scanner.positionals[0]
        let bytes: [UInt8]
        switch StubFiles.read(file, limit: ImportHARCommand.maxHARBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            StubdCommand.printError("stubd: \(file): \(error)")
            return 1
        }
        let result: PactReader.Result
        do { result = try PactReader.read(bytes, file: file) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        if layout.service == nil { layout.service = result.service }
        let built = CaptureLayout.build(result.exchanges, options: layout, policy: policy)
        return CaptureReport.writeAndCheck(built, into: stubs, overwrite: overwrite, skipped: result.skipped, total: result.exchanges.count)
    }
}
