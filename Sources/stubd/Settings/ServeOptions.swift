#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubServer
import StubTLS

/// What `stubd serve` and `stubd record` are told, before anything is loaded: the server's
/// configuration (starting from `StubServerConfiguration.daemon`, so the library and the CLI
/// share their defaults) and what only the command line knows.
struct ServeOptions: Sendable {
    /// The stub directory.
    var stubs = "Stubs"
    var configuration = StubServerConfiguration.daemon
    /// `--max-connections`; applied after the file limit is raised.
    var maxConnections: Int?
    /// `--record-unmatched`: proxied exchanges are written into the stub directory.
    var recordUnmatched = false
    /// The proxy (`--proxy-unmatched`) and its settings; made when serving starts.
    var proxyUnmatched: URL?
    var proxyTimeoutSeconds: Double = 30
    var proxyAuthorities: URL?
    /// Where proxied exchanges are written as stubs, if anywhere.
    var recordInto: URL?
    /// The API contract (`--openapi`) and its settings; read when serving starts.
    var openAPI: URL?
    var openAPIRoot: URL?
    var openAPIEnforce = false
    /// HTTPS: asked for with `--tls` (on or off), or implied by any other HTTPS setting.
    var tlsSwitch: Bool?
    var tlsImplied = false
    var tlsPort = 8443
    var tlsDirectory = TLSDirectory.defaultPath
    var tlsOnly = false
    /// HTTP/2 on the HTTPS port, and its streams per connection.
    var http2 = true
    var http2MaxStreams = 100
    /// The fleet's store (`--state`), its password file and this replica's name.
    var state: String?
    var statePasswordFile: URL?
    var stateAuthorities: URL?
    var replica: String?

    /// Whether HTTPS is served: an explicit `--tls`/`STUBD_TLS` decides, else any HTTPS setting.
    var tlsEnabled: Bool { tlsSwitch ?? tlsImplied }
}
