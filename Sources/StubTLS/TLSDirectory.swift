#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder holding stubd's local certificate authority and server certificate (by default
/// `~/.stubd/tls`), and `stubd tls init`: make the authority once, then (re)issue the server
/// certificate signed by it.
public struct TLSDirectory: Sendable {
    /// The folder.
    public let path: String

    /// The folder at `path`.
    public init(path: String) { self.path = path }

    /// `$HOME/.stubd/tls`.
    public static var defaultPath: String {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.stubd/tls"
    }

    /// The authority's certificate: what clients, the Simulator and devices are told to trust.
    public var authorityCertificate: String { path + "/ca.pem" }
    /// The authority's private key (mode 0600).
    public var authorityKey: String { path + "/ca-key.pem" }
    /// The server certificate `serve --tls` presents.
    public var serverCertificate: String { path + "/server.pem" }
    /// The server certificate's private key (mode 0600).
    public var serverKey: String { path + "/server-key.pem" }
    /// A configuration profile installing the authority on an iOS device.
    public var profile: String { path + "/stubd-ca.mobileconfig" }

    /// What `initialize` did.
    public struct Outcome: Sendable {
        /// True when the authority was made now; false when an existing one was reused.
        public let createdAuthority: Bool
        /// The authority's name.
        public let authorityName: String
        /// The names the server certificate is for.
        public let names: [String]
        /// When the server certificate expires.
        public let notAfter: Date
    }

    /// Makes the authority unless one is here, then issues a new server certificate for the
    /// default names and `hosts`, and writes the device profile.
    public func initialize(hosts: [String] = [], now: Date = Date()) throws(TLSError) -> Outcome {
        for host in hosts where !TLSDirectory.isHostName(host) {
            throw TLSError("--host \"\(host)\" is not a host name or an IP address")
        }
        try TLSFiles.makeDirectory(path)
        let (authority, authorityKey, created) = try loadOrMakeAuthority(now: now)
        let names = TLSDirectory.unique(TLSDirectory.defaultHosts() + hosts)
        let serverKey = try PrivateKey.generate()
        let server = try CertificateIssuer.issueServer(hosts: names, key: serverKey, authority: authority, authorityKey: authorityKey, now: now)
        try TLSFiles.write(try serverKey.pem(), to: self.serverKey, mode: 0o600)
        try TLSFiles.write(try server.pem(), to: serverCertificate, mode: 0o644)
        let profileText = MobileConfig.profile(authorityDER: try authority.der(), name: authority.commonName, fingerprint: try authority.fingerprint())
        try TLSFiles.write(Array(profileText.utf8), to: profile, mode: 0o644)
        return Outcome(createdAuthority: created, authorityName: authority.commonName, names: names, notAfter: server.notAfter)
    }

    private func loadOrMakeAuthority(now: Date) throws(TLSError) -> (X509Certificate, PrivateKey, Bool) {
        let haveCertificate = TLSFiles.exists(authorityCertificate)
        let haveKey = TLSFiles.exists(authorityKey)
        if haveCertificate != haveKey {
            let (present, absent) = haveCertificate ? (authorityCertificate, authorityKey) : (authorityKey, authorityCertificate)
            throw TLSError(file: absent, "is missing but \(present) exists; restore it, or delete \(path) to start a new authority (which every client must then trust again)")
        }
        if haveCertificate {
            let certificate = try X509Certificate.read(pem: try TLSFiles.read(authorityCertificate), file: authorityCertificate)
            let key = try PrivateKey.read(pem: try TLSFiles.read(authorityKey), file: authorityKey)
            guard try key.keyID() == certificate.keyID() else {
                throw TLSError(file: authorityKey, "is not the key of \(authorityCertificate) (their public keys differ)")
            }
            try ServerIdentity.checkValidity(certificate, file: authorityCertificate, now: now)
            return (certificate, key, false)
        }
        let key = try PrivateKey.generate()
        let certificate = try CertificateIssuer.makeAuthority(name: "stubd local CA on \(TLSDirectory.machineName()) (\(ISO8601.format(now).prefix(10)))", key: key, now: now)
        try TLSFiles.write(try key.pem(), to: authorityKey, mode: 0o600)
        try TLSFiles.write(try certificate.pem(), to: authorityCertificate, mode: 0o644)
        return (certificate, key, true)
    }

    /// localhost, both loopback addresses, the machine's name and, for a bare name, its
    /// Bonjour `.local` form (what a device on the same network reaches a Mac by).
    public static func defaultHosts() -> [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        let machine = machineName()
        if isHostName(machine), machine.lowercased() != "localhost" {
            names.append(machine)
            if !machine.contains(".") { names.append(machine + ".local") }
        }
        return names
    }

    static func machineName() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard buffer.withUnsafeMutableBufferPointer({ gethostname(UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 255) }) == 0 else {
            return "localhost"
        }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// True for an IP literal or a DNS name (letters, digits, hyphens and dots; `*.` first for a wildcard).
    static func isHostName(_ text: String) -> Bool {
        if IPAddressText.parse(text) != nil { return true }
        var name = Substring(text)
        if name.hasPrefix("*.") { name = name.dropFirst(2) }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted }
    }
}
