#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubServer
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd serve`: load, bind, serve until SIGINT or SIGTERM, exit 0.
enum ServeCommand {
    static var usage: String {
        """
        OVERVIEW: Serve a stub directory over HTTP.

        USAGE: stubd serve [OPTIONS]

        Each option can also be set with the STUBD_* variable shown; a flag overrides its
        variable, and an empty value means the default.

        OPTIONS:
        \(Setting.helpText(ServeSettings.all))
          --print-settings        Print each setting's value and where it came from (JSON), then exit
          -h, --help              Show this help
        """
    }

    /// The settings from `environment` and `arguments`, checked together.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> SettingsReader.Result {
        let reader = SettingsReader(settings: ServeSettings.all, commandSwitches: ["--print-settings"])
        var result = try reader.read(arguments, environment: environment)
        if let extra = result.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        let options = result.options
        if options.openAPIEnforce && options.openAPI == nil {
            throw UsageError(message: "--openapi-enforce needs --openapi SPEC")
        }
        if options.state == nil, let lone = ["--state-password-file", "--state-ca", "--replica"].first(where: { result.sources[$0] != nil }) {
            throw UsageError(message: "\(lone) needs --state URL")
        }
        if options.recordUnmatched {
            guard options.proxyUnmatched != nil else { throw UsageError(message: "--record-unmatched needs --proxy-unmatched URL") }
            result.options.recordInto = URL(fileURLWithPath: options.stubs)
        }
        return result
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let parsed: SettingsReader.Result
        do { parsed = try parse(arguments, environment: ProcessInfo.processInfo.environment) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        if parsed.switches.contains("--print-settings") {
            print(SettingsReport.json(ServeSettings.all, parsed))
            return 0
        }
        let options = parsed.options
        var signals: StopSignals
        do { signals = try StopSignals() } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        StubServerConfiguration.raiseFileLimit()
        var configuration = options.configuration
        let fileLimit = StubServerConfiguration.defaultConnectionLimit()
        configuration.connectionLimit = min(options.maxConnections ?? fileLimit, fileLimit)
        if let asked = options.maxConnections, asked > fileLimit {
            StubdCommand.printError("stubd: warning: --max-connections \(asked) is above what the open-file limit allows; using \(fileLimit)")
        }
        if options.tlsEnabled {
            do { configuration.tls = try tlsConfiguration(options) } catch {
                StubdCommand.printError("stubd: --tls-dir: cannot serve HTTPS: \(error)")
                return 2
            }
        }
        // What a setting names (the store, the OpenAPI document, the upstream's authorities)
        // cannot be used: a bad value, as a usage error is.
        do { try options.attach(to: &configuration) } catch {
            StubdCommand.printError("stubd: \(error.message)")
            return 2
        }
        MemoryPolicy.returnLargeBuffers()
        let server: StubServer
        do {
            server = try StubServer(stubsAt: URL(fileURLWithPath: options.stubs), configuration: configuration)
        } catch let error as StubServerError {
            if case .invalidStubs(let failure) = error {
                StubdCommand.printError("stubd: \(options.stubs) has \(failure.problems.count) problem(s); not serving:")
                StubdCommand.printError(failure.description)
            } else {
                StubdCommand.printError("stubd: \(error)")
            }
            return 1
        } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        if !configuration.bindsLoopback && configuration.adminEnabled && configuration.adminToken == nil {
            StubdCommand.printError("stubd: warning: the admin API on \(configuration.host) is open to the network; set --admin-token (or STUBD_ADMIN_TOKEN) or --no-admin")
        }
        for warning in server.catalog.warnings { StubdCommand.printError("stubd: warning: \(warning)") }
        let routes = server.catalog.routes.count
        // The first URL stays first and plain: scripts and container checks read it.
        let scheme = configuration.tls?.only == true ? "https" : "http"
        var also = server.listensOnIPv6Loopback ? " and \(scheme)://[::1]:\(server.port)" : ""
        if let secure = server.tlsBaseURL, configuration.tls?.only != true { also += "; HTTPS on \(secure.absoluteString)" }
        StandardStreams.write("stubd \(StubdVersion.current) serving \(options.stubs) (\(routes) routes) on \(server.baseURL.absoluteString)\(also)\n", to: STDOUT_FILENO)
        if let dashboard = server.dashboardURL { StandardStreams.write("dashboard: \(dashboard.absoluteString)\n", to: STDOUT_FILENO) }
        let received = signals.wait()
        server.stop()
        StubdCommand.printError("stubd: stopped (\(received))")
        return 0
    }
}
