/// The steps that make each kind of client trust the local authority, printed by `stubd tls init`
/// and repeated in the README's HTTPS section.
public enum TrustInstructions {
    /// The steps for `directory`, with `port` in the example URLs.
    public static func text(for directory: TLSDirectory, port: Int) -> String {
        let ca = shellQuoted(directory.authorityCertificate)
        return """
        Trust the authority once on each machine, Simulator and device that talks to stubd:
          Simulator (booted):  xcrun simctl keychain booted add-root-cert \(ca)
          macOS (login keychain, for macOS apps and tests):
                               security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db \(ca)
          iOS device:          AirDrop or mail \(shellQuoted(directory.profile)) to the device, install it in
                               Settings > General > VPN & Device Management, then turn on full trust in
                               Settings > General > About > Certificate Trust Settings
          curl:                curl --cacert \(ca) https://localhost:\(port)/__stubd/health
          Python, OpenSSL:     SSL_CERT_FILE=\(ca)
          URLSession on Linux (reads only the system store):
                               cp \(ca) /usr/local/share/ca-certificates/stubd-ca.crt && update-ca-certificates
        Serve HTTPS with: stubd serve --tls --tls-dir \(shellQuoted(directory.path))

        """
    }

    private static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-~".unicodeScalars.contains($0)) }
        return plain ? path : "'" + path.replacing("'", with: "'\\''") + "'"
    }
}
