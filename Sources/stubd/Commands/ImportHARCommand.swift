#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore
import StubServer

/// `stubd import-har FILE.har --stubs DIR`: a capture from Proxyman, Charles or a browser becomes
/// stubs in stubd's format, secrets taken out, checked before it reports success.
enum ImportHARCommand {
    static let usage = """
    OVERVIEW: Turn a HAR capture (Proxyman, Charles, Safari, Chrome, Firefox) into stubs.

    USAGE: stubd import-har FILE.har --stubs DIR [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory to write into (created if missing)
      --service NAME          Service folder name (default: the host; needs one host)
      --host HOST             Import only requests to this host
      --base-path PATH        The service's basePath (default: the paths' common prefix)
      --no-templates          Keep literal paths (no {param} for varying ids)
      --overwrite             Replace existing route folders and _service.json files
      --redact NAME           Also redact headers, query parameters and fields named NAME
      --keep NAME             Keep NAME even though it looks like a secret
      -h, --help              Show this help
    """

    /// The largest HAR file read: 1 GiB (a long browser session with bodies is hundreds of MB).
    static let maxHARBytes = 1 << 30

    static func parse(_ arguments: [String]) throws(UsageError) -> CaptureImportOptions {
        var options = CaptureImportOptions()
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            guard try options.take(option, from: &scanner) else { throw ArgumentScanner.unknown(option) }
        }
        try options.finish(scanner, what: "a HAR file")
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: CaptureImportOptions
        do { options = try parse(arguments) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let bytes: [UInt8]
        switch StubFiles.read(options.file, limit: ImportHARCommand.maxHARBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            StubdCommand.printError("stubd: \(options.file): \(error)")
            return 1
        }
        let read: HARReader.Result
        do { read = try HARReader.read(bytes, file: options.file) } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let exchanges: [CapturedExchange]
        switch options.selected(read.exchanges, from: "capture") {
        case .success(let kept): exchanges = kept
        case .failure(let error):
            StubdCommand.printError("stubd: \(error.message)")
            return 2
        }
        let layout = CaptureLayout.build(exchanges, options: options.layout, policy: options.policy)
        return CaptureReport.writeAndCheck(layout, into: options.stubs, overwrite: options.overwrite, skipped: read.skipped, total: exchanges.count,
                                           changed: read.changed)
    }
}
