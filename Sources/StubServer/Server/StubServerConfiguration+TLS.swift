extension StubServerConfiguration {
    /// How HTTPS is served.
    public struct TLS: Sendable {
        /// The server certificate, then any intermediates, as PEM (StubTLS's
        /// `ServerIdentity.load` reads and checks the files `stubd tls init` writes).
        public var certificatePEM: [UInt8]
        /// The certificate's private key as PEM.
        public var keyPEM: [UInt8]
        /// The HTTPS port on `host`; 0 picks a free one (read it back from `StubServer.tlsPort`).
        public var port: Int
        /// Serve HTTPS only: no plain HTTP listener.
        public var only: Bool
        /// Serve HTTP/2 to clients that offer `h2` by ALPN (off: `--no-http2`); off, every client gets
        /// HTTP/1.1 from libmicrohttpd on its own listener, as before HTTP/2 was served.
        public var http2 = true
        /// Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS,
        /// `--http2-max-streams`).
        public var http2MaxStreams = 100

        /// HTTPS with the certificate and key given on `port`, beside plain HTTP unless `only`.
        public init(certificatePEM: [UInt8], keyPEM: [UInt8], port: Int = 0, only: Bool = false) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
            self.port = port
            self.only = only
        }
    }
}
