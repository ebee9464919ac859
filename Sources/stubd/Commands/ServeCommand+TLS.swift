import StubServer
import StubTLS

/// `stubd serve`'s HTTPS options: any of them turns HTTPS on (as WireMock's `--https-port` does).
extension ServeCommand {
    /// Where and how HTTPS is served, before the key material is read.
    struct TLSOptions {
        var port = 8443
        var directory = TLSDirectory.defaultPath
        var only = false
    }

    static let tlsUsage = """
      --tls                   Also serve HTTPS, with the certificate `stubd tls init` made
                              (env STUBD_TLS=1)
      --tls-port PORT         HTTPS port (default 8443; env STUBD_TLS_PORT)
      --tls-dir DIR           Folder with server.pem and server-key.pem (default ~/.stubd/tls;
                              env STUBD_TLS_DIR)
      --tls-only              Serve HTTPS only, no plain HTTP (env STUBD_TLS_ONLY=1)
    """

    /// Takes `option` if it is an HTTPS option; false when it is not one.
    static func parseTLSOption(_ option: String, _ scanner: inout ArgumentScanner, into options: inout Options) throws(UsageError) -> Bool {
        var tls = options.tls ?? TLSOptions()
        switch option {
        case "--tls": break
        case "--tls-port": tls.port = try scanner.int(for: option, in: 0...65535)
        case "--tls-dir": tls.directory = try scanner.value(for: option)
        case "--tls-only": tls.only = true
        default: return false
        }
        options.tls = tls
        return true
    }

    static func applyTLSEnvironment(_ environment: [String: String], to options: inout Options) throws(UsageError) {
        var tls = TLSOptions()
        var on = false
        if let flag = environment["STUBD_TLS"], !flag.isEmpty {
            guard let value = switchValue(flag) else { throw UsageError(message: "STUBD_TLS must be 1 or 0, got \"\(flag)\"") }
            on = value
        }
        if let only = environment["STUBD_TLS_ONLY"], !only.isEmpty {
            guard let value = switchValue(only) else { throw UsageError(message: "STUBD_TLS_ONLY must be 1 or 0, got \"\(only)\"") }
            tls.only = value
            on = on || value
        }
        if let port = environment["STUBD_TLS_PORT"], !port.isEmpty {
            guard let p = Int(port), (0...65535).contains(p) else { throw UsageError(message: "STUBD_TLS_PORT must be a port number, got \"\(port)\"") }
            tls.port = p
        }
        if let directory = environment["STUBD_TLS_DIR"], !directory.isEmpty { tls.directory = directory }
        options.tls = on ? tls : nil
    }

    private static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: return nil
        }
    }

    /// The HTTPS configuration, with the key material read and checked; the error names the file.
    static func tlsConfiguration(_ options: TLSOptions) throws(TLSError) -> StubServerConfiguration.TLS {
        let identity = try ServerIdentity.load(from: TLSDirectory(path: options.directory))
        return StubServerConfiguration.TLS(identity: identity, port: options.port, only: options.only)
    }
}
