#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore
import StubServer

/// `stubd record --upstream URL --stubs DIR`: a reverse proxy for one run against a real API.
/// Every request goes to the upstream and its answer back unchanged; each exchange is written
/// into DIR as stubs (the import's grouping, naming and redaction). DIR is written, never served
/// or watched here, so no reload runs while recording.
enum RecordCommand {
    static let usage = """
    OVERVIEW: Proxy to a real API and write every exchange as stubs.

    USAGE: stubd record --upstream URL --stubs DIR [--port PORT] [--host HOST]

    OPTIONS:
      --upstream URL          The real API (http:// or https://); request paths are appended
      --stubs DIR             Where the stubs are written (created if missing)
      --host HOST             Address to bind (default localhost)
      --port PORT             Port to bind, 0 for a free one (default 8080)
      --timeout DURATION      How long to wait for the upstream before a 502 (default 30s)
      -h, --help              Show this help

    Ctrl-C or SIGTERM finishes writing and exits 0.
    """

    static func parse(_ arguments: [String]) throws(UsageError) -> (StubServerConfiguration, stubs: String) {
        var configuration = StubServerConfiguration()
        configuration.host = "localhost"
        configuration.port = 8080
        configuration.log = .text
        configuration.watch = false
        var stubs = ""
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            switch option {
            case "--upstream": configuration.proxyUnmatched = try ServeCommand.upstreamURL(try scanner.value(for: option), flag: option)
            case "--stubs": stubs = try scanner.value(for: option)
            case "--host": configuration.host = try scanner.value(for: option)
            case "--port": configuration.port = try scanner.int(for: option, in: 0...65535)
            case "--timeout": configuration.proxyTimeoutSeconds = Double(max(1, try scanner.duration(for: option))) / 1000
            default: throw ArgumentScanner.unknown(option)
            }
        }
        if let extra = scanner.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        guard configuration.proxyUnmatched != nil else { throw UsageError(message: "expected --upstream URL") }
        guard !stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        configuration.recordProxiedInto = URL(fileURLWithPath: stubs)
        return (configuration, stubs)
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let (configuration, stubs): (StubServerConfiguration, String)
        do { (configuration, stubs) = try parse(arguments) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        var signals: StopSignals
        do { signals = try StopSignals() } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        // Nothing is stubbed while recording: the server serves an empty folder, so every request
        // is unmatched and goes upstream.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-record-\(getpid())")
        defer { try? FileManager.default.removeItem(at: empty) }
        let server: StubServer
        do {
            try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            server = try StubServer(stubsAt: empty, configuration: configuration)
        } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let also = server.listensOnIPv6Loopback ? " and http://[::1]:\(server.port)" : ""
        StandardStreams.write("stubd \(StubdVersion.current) recording on \(server.baseURL.absoluteString)\(also) (proxying to \(configuration.proxyUnmatched!.absoluteString)), writing into \(stubs)\n", to: STDOUT_FILENO)
        let received = signals.wait()
        // Stopping waits for requests still with the upstream; each is written before it answers.
        server.stop()
        let layout = server.recorder?.layout ?? CaptureLayout(services: [], redactions: RedactionReport())
        let routes = layout.services.reduce(0) { $0 + $1.routes.count }
        print("Recorded \(routes) route(s) into \(stubs):")
        for line in layout.summary { print("  \(line)") }
        print(layout.redactions.lines.isEmpty ? "Redacted: nothing" : "Redacted (written as REDACTED or left out):")
        for line in layout.redactions.lines { print("  \(line)") }
        StubdCommand.printError("stubd: stopped (\(received))")
        return 0
    }
}
