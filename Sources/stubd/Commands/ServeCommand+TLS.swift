import StubServer
import StubTLS

/// `stubd serve`'s HTTPS: any HTTPS setting turns it on (as WireMock's `--https-port` does),
/// unless `--tls 0` or `STUBD_TLS=0` says otherwise.
extension ServeCommand {
    /// The HTTPS configuration, with the key material read and checked; the error names the file.
    static func tlsConfiguration(_ options: ServeOptions) throws(TLSError) -> StubServerConfiguration.TLS {
        let identity = try ServerIdentity.load(from: TLSDirectory(path: options.tlsDirectory))
        var tls = StubServerConfiguration.TLS(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM, port: options.tlsPort, only: options.tlsOnly)
        tls.http2 = options.http2
        tls.http2MaxStreams = options.http2MaxStreams
        return tls
    }
}
