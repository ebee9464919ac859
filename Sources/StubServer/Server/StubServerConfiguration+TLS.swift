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

        /// HTTPS with the certificate and key given on `port`, beside plain HTTP unless `only`.
        public init(certificatePEM: [UInt8], keyPEM: [UInt8], port: Int = 0, only: Bool = false) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
            self.port = port
            self.only = only
        }
    }
}
