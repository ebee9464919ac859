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

    struct Options {
        var file = ""
        var stubs = ""
        var host: String?
        var layout = CaptureLayout.Options()
        var overwrite = false
        var policy = SecretPolicy()
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            switch option {
            case "--stubs": options.stubs = try scanner.value(for: option)
            case "--service": options.layout.service = try scanner.folderName(for: option)
            case "--host": options.host = try scanner.value(for: option).lowercased()
            case "--base-path": options.layout.basePath = try scanner.value(for: option)
            case "--no-templates": options.layout.templates = false
            case "--overwrite": options.overwrite = true
            case "--redact": options.policy.redact(try scanner.value(for: option))
            case "--keep": options.policy.keep(try scanner.value(for: option))
            default: throw ArgumentScanner.unknown(option)
            }
        }
        guard let file = scanner.positionals.first else { throw UsageError(message: "expected a HAR file") }
        if scanner.positionals.count > 1 { throw UsageError(message: "unexpected argument \"\(scanner.positionals[1])\"") }
        guard !options.stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        options.file = file
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: Options
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
        var exchanges = read.exchanges
        if let host = options.host { exchanges = exchanges.filter { $0.host == host || $0.host.hasPrefix(host + ":") } }
        let hosts = Set(exchanges.map(\.host))
        if options.layout.service != nil, hosts.count > 1 {
            StubdCommand.printError("stubd: --service names one service, but the capture has \(hosts.count) hosts (\(hosts.sorted().joined(separator: ", "))); add --host to pick one")
            return 2
        }
        let layout = CaptureLayout.build(exchanges, options: options.layout, policy: options.policy)
        return CaptureReport.writeAndCheck(layout, into: options.stubs, overwrite: options.overwrite, skipped: read.skipped, total: exchanges.count,
                                           changed: read.changed)
    }
}
