import StubServer
import StubCore

/// Every setting of `stubd serve`, once, in the order `--help` and the README list them. The
/// flag's `STUBD_*` variable, the default shown, and the error for a bad value all come from here.
enum ServeSettings {
    static var all: [Setting] { basics + limits + serving + proxy + contract + tls + fleet }

    static var basics: [Setting] {
        [
            .folder("--stubs", "DIR", \.stubs, help: "Stub directory"),
            .bindHost("--host", \.configuration.host,
                      help: "Address to bind; localhost listens on 127.0.0.1 and ::1 on one port"),
            .port("--port", \.configuration.port, help: "Port to bind, 0 for a free one"),
            .choice("--log", "FORMAT", \.configuration.log, help: "Access log: text, json or off"),
            .duration("--delay", \.configuration.baseDelayMs, help: "Base delay added to every stub response, e.g. 300ms"),
            with(.duration("--hold-cap", \.configuration.holdCapMs, minimum: 1, help:
                "Longest a connection is held open: a `hang` fault, a hold, a keep-open stream"), aliases: ["--hang-cap"]),
            .number("--journal-size", "N", 0...10_000_000, \.configuration.journalSize, help: "Requests kept in the journal, 0 to keep none"),
            .toggle("--journal-credentials", \.configuration.journalCredentials, on: true,
                    help: "Journal secrets verbatim (credential headers, secret-named query values and body fields, in the journal, the access log and Pact export), not as a redacted marker with a fingerprint"),
            .seconds("--session-ttl", \.configuration.sessionTTLSeconds, minimum: 1000,
                     help: "Drop a session's overrides and sequences after this long unused"),
            .number("--max-sessions", "N", 1...10_000_000, \.configuration.maxSessions,
                    help: "Sessions holding overrides at once; the least recently used go first"),
            .optionalText("--admin-token", "TOKEN", \.configuration.adminToken,
                          help: "Require `Authorization: Bearer TOKEN` on admin calls").keptSecret(),
            .hostNames("--allow-host", \.configuration.allowedHosts,
                       help: "Names the admin API and dashboard answer as Host besides localhost and loopback addresses (a shared stubd reached by name)"),
            .toggle("--no-admin", \.configuration.adminEnabled, on: false, help: "Turn off the admin API under /__stubd/"),
            .toggle("--no-ui", \.configuration.dashboard, on: false, help: "Turn off the dashboard at /__stubd/ui"),
            .toggle("--no-watch", \.configuration.watch, on: false, help: "Do not reload when stub files change"),
            .choice("--watch", "MODE", \.configuration.watchMode, help: "How changes are noticed: native (inotify on Linux) or poll"),
        ]
    }

    static var limits: [Setting] {
        [
            .size("--max-body", \.configuration.maxBodyBytes, help: "Largest request body; larger ones get 413"),
            .size("--max-body-memory", \.configuration.maxBodyMemoryBytes,
                  help: "Request bodies all requests may hold in memory at once; past it, 503"),
            .duration("--header-timeout", \.configuration.headerTimeoutMs, minimum: 1,
                      help: "Time a client has to send a complete request head"),
            .duration("--body-timeout", \.configuration.bodyTimeoutMs, minimum: 1,
                      help: "Time a request body may take, extended by --body-min-rate"),
            .number("--body-min-rate", "BYTES", 0...1_073_741_824, \.configuration.minBodyRate,
                    help: "Each BYTES of body received extend --body-timeout by a second; 0 for none"),
            .optionalNumber("--max-connections", "N", 1...1_000_000, \.maxConnections, help: "Open connections; more are closed at once",
                            defaultNote: "the file limit, raised to its hard limit, minus 64"),
            .optionalNumber("--max-client-connections", "N", 0...1_000_000, \.configuration.maxClientConnections,
                            help: "Open connections from one address, 0 for no cap",
                            defaultNote: "none on a loopback address, else half of --max-connections"),
            .size("--connection-memory", \.configuration.maxHeadBytes, 2048...1_048_576,
                  help: "Largest request head served; a larger one gets a JSON 431 (414 for a long request target), up to about twice the size"),
            .size("--graphql-max-document", \.configuration.graphQLMaxDocumentBytes, 1024...(64 << 20),
                  help: "Largest GraphQL query document read; a larger one gets a 400 in GraphQL's error shape, unread"),
            .number("--graphql-max-depth", "N", 1...10_000, \.configuration.graphQLMaxDepth,
                    help: "Deepest nesting of selection sets in a GraphQL document; deeper gets a 400"),
            .number("--graphql-max-batch", "N", 1...100_000, \.configuration.graphQLMaxBatch,
                    help: "Most operations in one GraphQL batch; more gets a 400"),
            .optionalNumber("--websocket-max-conversations", "N", 1...1_000_000, \.configuration.webSocketMaxConversations,
                            help: "WebSocket conversations open at once, at most three quarters of --max-connections; a handshake past it gets 503",
                            defaultNote: "three quarters of --max-connections"),
            .size("--websocket-max-queue", \.configuration.webSocketMaxQueueBytes, 1024...(1 << 30),
                  help: "Bytes queued for one WebSocket client past which stubd stops reading it until half are sent; four times this closes it with 1008"),
            .size("--websocket-max-queue-total", \.configuration.webSocketMaxQueueTotalBytes, 1024...(16 << 30),
                  help: "Bytes queued for all WebSocket clients at once past which no client with anything queued is read"),
            .duration("--websocket-idle-timeout", \.configuration.webSocketIdleTimeoutMs,
                      help: "Close a WebSocket conversation with 1001 after this long without a frame from the client or a message to it; 0 for never"),
            .number("--max-collection-objects", "N", 1...10_000_000, \.configuration.maxCollectionObjects,
                    help: "Objects one collection holds per session; a POST past it gets 409 in the service's error envelope"),
            .size("--max-state-bytes", \.configuration.maxStateBytes, 1024...(1 << 30),
                  help: "Bytes of state values one service holds per session; a change past it gets 413"),
            .number("--seed", "N", 0...Int.max, \.configuration.seed,
                    help: "Seed of the values templates draw ({{uuid}}, {{fake.name}}, {{random.int 1 9}}): the same seed, the same values; X-Stub-Seed on a request or PUT /__stubd/seed for a session overrides it"),
        ]
    }

    static var serving: [Setting] {
        [
            with(.number("--threads", "N", 1...64, \.configuration.ioThreads, help: "Threads that wait for sockets and serve requests"),
                 defaultNote: "one per core, at most 4"),
            .choice("--event-loop", "LOOP", \.configuration.eventLoop, help: "How sockets are awaited: native (epoll on Linux; HTTPS always polls) or poll"),
        ]
    }

    static var proxy: [Setting] {
        [
            .upstream("--proxy-unmatched", \.proxyUnmatched,
                      help: "Forward requests no stub matches to URL (502 when it fails); the journal marks them proxied"),
            .seconds("--proxy-timeout", \.proxyTimeoutSeconds, minimum: 1,
                     help: "How long a proxied request waits for the upstream before a 502"),
            .file("--proxy-ca", "FILE", \.proxyAuthorities,
                  help: "PEM authorities an https upstream may chain to, beside the system's"),
            .toggle("--record-unmatched", \.recordUnmatched, help: "Also write proxied exchanges into the stub directory as stubs"),
        ]
    }

    static var contract: [Setting] {
        [
            .file("--openapi", "SPEC", \.openAPI,
                  help: "Check requests to stubbed routes against this OpenAPI document; violations go into the journal, the log and health"),
            .toggle("--openapi-enforce", \.openAPIEnforce,
                    help: "Answer violating requests with 400 (422 for a body schema failure) in the service's error envelope"),
            with(.folder("--spec-root", "DIR", \.openAPIRoot, help: "Folder the document's file $refs may reach, and where a remote $ref's copy is read from as DIR/HOST/PATH"),
                 defaultNote: "the document's folder"),
        ]
    }

    static var fleet: [Setting] {
        [
            .storeURL("--state", \.state, help:
                "Share overrides, sequences, sessions, holds and the journal with the other replicas on Valkey or Redis at redis://[:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS)"),
            .file("--state-password-file", "FILE", \.statePasswordFile, help: "Read the store's password from FILE instead of the URL"),
            .file("--state-ca", "FILE", \.stateAuthorities, help: "PEM authorities the store's TLS certificate may chain to, beside the system's"),
            with(.optionalText("--replica", "NAME", \.replica, help: "This replica's name in the fleet's journal and health"),
                 defaultNote: "host name and process id"),
        ]
    }

    static var tls: [Setting] {
        [
            Setting(flag: "--tls", valueName: nil, help: "Also serve HTTPS, with the certificate `stubd tls init` made",
                    expectation: "1 or 0 (true/false, yes/no, on/off)",
                    apply: { text, options in
                        guard let on = Setting.switchValue(text) else { return false }
                        options.tlsSwitch = on
                        return true
                    },
                    reset: { $0.tlsSwitch = nil }, show: { $0.tlsEnabled ? "1" : "0" }),
            implyingTLS(.port("--tls-port", \.tlsPort, help: "HTTPS port; setting it turns HTTPS on")),
            implyingTLS(with(.folder("--tls-dir", "DIR", \.tlsDirectory, help: "Folder with server.pem and server-key.pem; setting it turns HTTPS on"),
                             defaultNote: "~/.stubd/tls")),
            implyingTLS(.toggle("--tls-only", \.tlsOnly, help: "Serve HTTPS only, no plain HTTP")),
            .toggle("--no-http2", \.http2, on: false, help: "Serve every HTTPS client HTTP/1.1; without it, a client offering h2 by ALPN gets HTTP/2"),
            .number("--http2-max-streams", "N", 1...10_000, \.http2MaxStreams,
                    help: "Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS)"),
        ]
    }

    /// `setting` with aliases or a default in words.
    static func with(_ setting: Setting, aliases: [String] = [], defaultNote: String? = nil) -> Setting {
        var changed = setting
        changed.aliases = aliases
        if let defaultNote { changed.defaultNote = defaultNote }
        return changed
    }

    /// An HTTPS setting that turns HTTPS on when given (`--tls-only` only when on).
    static func implyingTLS(_ setting: Setting) -> Setting {
        var changed = setting
        let apply = setting.apply
        changed = Setting(flag: setting.flag, aliases: setting.aliases, valueName: setting.valueName, help: setting.help,
                          expectation: setting.expectation, defaultNote: setting.defaultNote,
                          apply: { text, options in
                              guard apply(text, &options) else { return false }
                              if setting.flag != "--tls-only" || options.tlsOnly { options.tlsImplied = true }
                              return true
                          },
                          reset: setting.reset, show: setting.show)
        return changed
    }
}
