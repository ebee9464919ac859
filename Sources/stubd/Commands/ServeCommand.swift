#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubServer
import StubCore

/// `stubd serve`: load, bind, serve until SIGINT or SIGTERM, exit 0.
enum ServeCommand {
    static let usage = """
    OVERVIEW: Serve a stub directory over HTTP.

    USAGE: stubd serve [OPTIONS]

    OPTIONS:
      --stubs DIR             Stub directory (default ./Stubs; env STUBD_STUBS)
      --host HOST             Address to bind (default localhost: 127.0.0.1 and ::1 on one port;
                              env STUBD_HOST)
      --port PORT             Port to bind, 0 for a free one (default 8080; env STUBD_PORT)
      --log FORMAT            Access log: text, json or off (default text; env STUBD_LOG)
      --delay DURATION        Base delay added to every stub response, e.g. 300ms (env STUBD_DELAY)
      --hang-cap DURATION     How long a `hang` fault holds a connection (default 300s)
      --journal-size N        Requests kept in the journal, 0 to disable (default 1000; env STUBD_JOURNAL_SIZE)
      --session-ttl DURATION  Drop a session's overrides and sequences after this long unused
                              (default 10m; env STUBD_SESSION_TTL)
      --max-sessions N        Sessions holding overrides at once; the least recently used go
                              first (default 10000; env STUBD_MAX_SESSIONS)
      --admin-token TOKEN     Require `Authorization: Bearer TOKEN` on admin calls (env STUBD_ADMIN_TOKEN)
      --max-body SIZE         Largest request body; larger ones get 413, e.g. 16MiB
                              (default 16MiB; env STUBD_MAX_BODY)
      --max-body-memory SIZE  Request bodies all requests may hold in memory at once; past it,
                              503 (default 256MiB; env STUBD_MAX_BODY_MEMORY)
      --header-timeout DURATION
                              Time a client has to send a complete request head (default 10s;
                              env STUBD_HEADER_TIMEOUT)
      --body-timeout DURATION Time a request body may take, extended by --body-min-rate
                              (default 20s; env STUBD_BODY_TIMEOUT)
      --body-min-rate BYTES   Each BYTES of body received extend --body-timeout by a second;
                              0 for none (default 500; env STUBD_BODY_MIN_RATE)
      --max-connections N     Open connections; more are closed at once (default: the file
                              limit, raised to its hard limit, minus 64)
      --max-client-connections N
                              Open connections from one address, 0 for no cap (default: none
                              on a loopback address, else half of --max-connections)
      --connection-memory N   Bytes per connection for request and response heads; larger
                              request heads get 431 (default 6144)
      --threads N             libmicrohttpd polling threads (default: one per core, at most 4)
      --no-admin              Turn off the admin API under /__stubd/
      --no-watch              Do not reload when stub files change
      --watch MODE            How changes are noticed: native (inotify on Linux) or poll
      --event-loop LOOP       How sockets are awaited: native (epoll on Linux) or poll
      --proxy-unmatched URL   Forward requests no stub matches to URL (502 when it fails);
                              the journal marks them "proxied" (env STUBD_PROXY_UNMATCHED)
      --record-unmatched      Also write proxied exchanges into the stub directory as stubs
      --openapi SPEC          Check requests to stubbed routes against this OpenAPI document;
                              violations go into the journal, the log and /__stubd/health
      --openapi-enforce       Answer violating requests with 400 (422 for a body schema
                              failure) instead of the stub, in the service's error envelope
      --spec-root DIR         Folder the document's file $refs may reach (default: its folder)
    \(tlsUsage)
      -h, --help              Show this help
    """

    struct Options {
        var stubs = "Stubs"
        var configuration = StubServerConfiguration()
        /// `--max-connections`; applied after the file limit is raised.
        var maxConnections: Int?
        /// HTTPS, when asked for; the key material is read when serving starts.
        var tls: TLSOptions?
        /// `--record-unmatched`: proxied exchanges are written into the stub directory.
        var recordUnmatched = false
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
        var options = Options()
        options.configuration.port = 8080
        options.configuration.host = "localhost"
        options.configuration.log = .text
        options.configuration.watch = true
        options.configuration.announceReloads = true
        try applyEnvironment(environment, to: &options)
        try applyTLSEnvironment(environment, to: &options)
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            switch option {
            case "--stubs": options.stubs = try scanner.value(for: option)
            case "--host": options.configuration.host = try scanner.value(for: option)
            case "--port": options.configuration.port = try scanner.int(for: option, in: 0...65535)
            case "--log":
                let text = try scanner.value(for: option)
                guard let format = AccessLogFormat(rawValue: text) else { throw UsageError(message: "--log expects text, json or off, got \"\(text)\"") }
                options.configuration.log = format
            case "--delay": options.configuration.baseDelayMs = try scanner.duration(for: option)
            case "--hang-cap": options.configuration.hangCapMs = try scanner.duration(for: option)
            case "--journal-size": options.configuration.journalSize = try scanner.int(for: option, in: 0...10_000_000)
            case "--session-ttl":
                let ms = try scanner.duration(for: option)
                guard ms >= 1000 else { throw UsageError(message: "--session-ttl must be 1s or more") }
                options.configuration.sessionIdleSeconds = Double(ms) / 1000
            case "--max-sessions": options.configuration.maxSessions = try scanner.int(for: option, in: 1...10_000_000)
            case "--admin-token": options.configuration.adminToken = try scanner.value(for: option)
            case "--max-body": options.configuration.maxBodyBytes = try scanner.size(for: option)
            case "--max-body-memory": options.configuration.maxBodyMemoryBytes = try scanner.size(for: option)
            case "--header-timeout":
                options.configuration.headerTimeoutMs = try scanner.duration(for: option)
                if options.configuration.headerTimeoutMs == 0 { throw UsageError(message: "--header-timeout must be more than 0") }
            case "--body-timeout":
                options.configuration.bodyTimeoutMs = try scanner.duration(for: option)
                if options.configuration.bodyTimeoutMs == 0 { throw UsageError(message: "--body-timeout must be more than 0") }
            case "--body-min-rate": options.configuration.minBodyRate = try scanner.int(for: option, in: 0...1_073_741_824)
            case "--max-connections": options.maxConnections = try scanner.int(for: option, in: 1...1_000_000)
            case "--max-client-connections": options.configuration.maxClientConnections = try scanner.int(for: option, in: 0...1_000_000)
            case "--connection-memory": options.configuration.connectionMemoryLimit = try scanner.int(for: option, in: 2048...1_048_576)
            case "--threads": options.configuration.pollingThreads = try scanner.int(for: option, in: 1...64)
            case "--no-admin": options.configuration.adminEnabled = false
            case "--no-watch": options.configuration.watch = false
            case "--watch":
                let text = try scanner.value(for: option)
                guard let mode = StubServerConfiguration.WatchMode(rawValue: text) else { throw UsageError(message: "--watch expects native or poll, got \"\(text)\"") }
                options.configuration.watchMode = mode
            case "--event-loop":
                let text = try scanner.value(for: option)
                guard let loop = StubServerConfiguration.EventLoop(rawValue: text) else { throw UsageError(message: "--event-loop expects native or poll, got \"\(text)\"") }
                options.configuration.eventLoop = loop
            case "--proxy-unmatched": options.configuration.proxyUnmatched = try upstreamURL(try scanner.value(for: option), flag: option)
            case "--record-unmatched": options.recordUnmatched = true
            case "--openapi": options.configuration.openAPI = URL(fileURLWithPath: try scanner.value(for: option))
            case "--openapi-enforce": options.configuration.openAPIEnforce = true
            case "--spec-root": options.configuration.openAPIRoot = URL(fileURLWithPath: try scanner.value(for: option))
            default:
                guard try parseTLSOption(option, &scanner, into: &options) else { throw ArgumentScanner.unknown(option) }
            }
        }
        if let extra = scanner.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        if options.configuration.openAPIEnforce && options.configuration.openAPI == nil {
            throw UsageError(message: "--openapi-enforce needs --openapi SPEC")
        }
        if options.recordUnmatched {
            guard options.configuration.proxyUnmatched != nil else { throw UsageError(message: "--record-unmatched needs --proxy-unmatched URL") }
            options.configuration.recordProxiedInto = URL(fileURLWithPath: options.stubs)
        }
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        let options: Options
        do { options = try parse(arguments, environment: ProcessInfo.processInfo.environment) } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
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
        if let tls = options.tls {
            do { configuration.tls = try tlsConfiguration(tls) } catch {
                StubdCommand.printError("stubd: cannot serve HTTPS: \(error)")
                return 1
            }
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
        let received = signals.wait()
        server.stop()
        StubdCommand.printError("stubd: stopped (\(received))")
        return 0
    }
}
