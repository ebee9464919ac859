import StubCapture
import StubCore

/// The options `import-har` and `import-postman` share, and what they do with the exchanges
/// read: where to write, which host, how to lay the services out, what else to redact.
struct CaptureImportOptions {
    var file = ""
    var stubs = ""
    var host: String?
    var layout = CaptureLayout.Options()
    var overwrite = false
    var policy = SecretPolicy()

    /// Takes `option` (its value from `scanner`) when it is a shared one; false for another.
    mutating func take(_ option: String, from scanner: inout ArgumentScanner) throws(UsageError) -> Bool {
        switch option {
        case "--stubs": stubs = try scanner.value(for: option)
        case "--service": layout.service = try scanner.folderName(for: option)
        case "--host": host = try scanner.value(for: option).lowercased()
        case "--base-path": layout.basePath = try scanner.value(for: option)
        case "--no-templates": layout.templates = false
        case "--overwrite": overwrite = true
        case "--redact": policy.redact(try scanner.value(for: option))
        case "--keep": policy.keep(try scanner.value(for: option))
        default: return false
        }
        return true
    }

    /// Takes the one file argument and checks `--stubs` was given; `what` names the file.
    mutating func finish(_ scanner: ArgumentScanner, what: String) throws(UsageError) {
        guard let first = scanner.positionals.first else { throw UsageError(message: "expected \(what)") }
        if scanner.positionals.count > 1 { throw UsageError(message: "unexpected argument \"\(scanner.positionals[1])\"") }
        guard !stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        file = first
    }

    /// The exchanges to import (`--host`'s only), or why none can be: `--service` names one
    /// service, so the exchanges must have one host.
    func selected(_ exchanges: [CapturedExchange], from source: String) -> Result<[CapturedExchange], UsageError> {
        var kept = exchanges
        if let host { kept = kept.filter { $0.host == host || $0.host.hasPrefix(host + ":") } }
        let hosts = Set(kept.map(\.host))
        if layout.service != nil, hosts.count > 1 {
            return .failure(UsageError(message: "--service names one service, but the \(source) has \(hosts.count) hosts (\(hosts.sorted().joined(separator: ", "))); add --host to pick one"))
        }
        return .success(kept)
    }
}
