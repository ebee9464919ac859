#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore
import StubProxy
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd record --upstream URL --stubs DIR`: a reverse proxy for one run against a real API.
/// Every request goes to the upstream and its answer back unchanged; each exchange is written
/// into DIR as stubs (the import's grouping, naming and redaction). DIR is written, never served
/// or watched here, so no reload runs while recording.
enum RecordCommand {
    /// `record`'s settings: its own `--upstream` and `--stubs`, and `serve`'s for the rest, so
    /// the same flag means the same thing (and reads the same variable) in both.
    static var settings: [Setting] {
        [
            .upstream("--upstream", \.proxyUnmatched, help: "The real API (http:// or https://); request paths are appended"),
            .text("--stubs", "DIR", \.stubs, help: "Where the stubs are written (created if missing)"),
        ] + ["--host", "--port", "--proxy-timeout", "--proxy-ca"].map { flag in
            var setting = ServeSettings.all.first { $0.flag == flag }!
            if flag == "--proxy-timeout" { setting.aliases = ["--timeout"] }
            return setting
        }
    }

    static var usage: String {
        """
        OVERVIEW: Proxy to a real API and write every exchange as stubs.

        USAGE: stubd record --upstream URL --stubs DIR [OPTIONS]

        OPTIONS:
        \(Setting.helpText(settings))
          -h, --help              Show this help

        Ctrl-C or SIGTERM finishes writing and exits 0.
        """
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ServeOptions {
        var start = ServeOptions()
        // The folder is written, never served: nothing to watch or announce.
        start.configuration.watch = false
        start.configuration.announceReloads = false
        let result = try SettingsReader(settings: settings).read(arguments, environment: environment, into: start)
        if let extra = result.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        var options = result.options
        guard options.proxyUnmatched != nil else { throw UsageError(message: "expected --upstream URL") }
        guard result.sources["--stubs"] != nil, !result.options.stubs.isEmpty else { throw UsageError(message: "expected --stubs DIR") }
        options.recordInto = URL(fileURLWithPath: options.stubs)
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: ServeOptions
        do { options = try parse(arguments, environment: ProcessInfo.processInfo.environment) } catch {
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
        let stubs = options.stubs
        var configuration = options.configuration
        let server: StubServer
        let forwarder: UpstreamForwarder?
        do {
            try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            forwarder = try options.attach(to: &configuration)
            server = try StubServer(stubsAt: empty, configuration: configuration)
        } catch let error as ServeOptions.AttachError {
            StubdCommand.printError("stubd: \(error.message)")
            return 1
        } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        let also = server.listensOnIPv6Loopback ? " and http://[::1]:\(server.port)" : ""
        StandardStreams.write("stubd \(StubdVersion.current) recording on \(server.baseURL.absoluteString)\(also) (proxying to \(options.proxyUnmatched!.absoluteString)), writing into \(stubs)\n", to: STDOUT_FILENO)
        let received = signals.wait()
        // Stopping waits for requests still with the upstream; each is written before it answers.
        server.stop()
        let layout = forwarder?.recorder?.layout ?? CaptureLayout(services: [], redactions: RedactionReport())
        let routes = layout.services.reduce(0) { $0 + $1.routes.count }
        print("Recorded \(routes) route(s) into \(stubs):")
        for line in layout.summary { print("  \(line)") }
        print(layout.redactions.lines.isEmpty ? "Redacted: nothing" : "Redacted (written as REDACTED or left out):")
        for line in layout.redactions.lines { print("  \(line)") }
        StubdCommand.printError("stubd: stopped (\(received))")
        return 0
    }
}
