import Foundation
import StubTLS
import Testing
import StubTestSupport

/// `stubd tls init`'s files, read back with GnuTLS's `certtool` and Python's `ssl`, as a user
/// checking them would.
@Suite(.timeLimit(.minutes(3))) struct TLSCertificateTests {
    @Test func serverCertificateMeetsApplesRules() async throws {
        let fixture = try TLSFixture(hosts: ["api.test", "10.0.0.5"])
        let info = try await certtool(["-i", "--infile", fixture.directory.serverCertificate])
        #expect(info.exitCode == 0, "\(info.stderr)")
        let text = info.stdout
        for line in ["DNSname: localhost", "IPAddress: 127.0.0.1", "IPAddress: ::1", "DNSname: api.test", "IPAddress: 10.0.0.5",
                     "Certificate Authority (CA): FALSE", "Digital signature.", "TLS WWW Server.", "Signature Algorithm: ECDSA-SHA256",
                     "Version: 3"] {
            #expect(text.contains(line), "certtool -i lacks \(line)")
        }
        // The validity span, from Python's reading of the certificate.
        let span = try await python("""
            import ssl, sys
            c = ssl._ssl._test_decode_cert(sys.argv[1])
            t = lambda s: ssl.cert_time_to_seconds(s)
            print((t(c['notAfter']) - t(c['notBefore'])) / 86400)
            """, fixture.directory.serverCertificate)
        let days = try #require(Double(span.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(days > 390 && days <= 398, "\(days) days")
        let verify = try await certtool(["--verify", "--load-ca-certificate", fixture.directory.authorityCertificate,
                                                                    "--infile", fixture.directory.serverCertificate])
        #expect(verify.exitCode == 0, "\(verify.stdout)")
    }

    @Test func authorityIsACAAndKeysAreReadableByTheUserOnly() async throws {
        let fixture = try TLSFixture()
        let info = try await certtool(["-i", "--infile", fixture.directory.authorityCertificate])
        #expect(info.stdout.contains("Certificate Authority (CA): TRUE"))
        #expect(info.stdout.contains("Certificate signing."))
        for key in [fixture.directory.authorityKey, fixture.directory.serverKey] {
            let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(key): \(String(mode ?? 0, radix: 8))")
        }
        #expect(fixture.outcome.createdAuthority)
    }

    @Test func runningAgainKeepsTheAuthorityAndRenewsTheServerCertificate() async throws {
        let fixture = try TLSFixture()
        let authority = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.authorityCertificate))
        let server = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.serverCertificate))
        let again = try fixture.directory.initialize(hosts: ["renewed.test"])
        #expect(!again.createdAuthority)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.directory.authorityCertificate)) == authority)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.directory.serverCertificate)) != server)
        #expect(again.names.contains("renewed.test"))
        let verify = try await certtool(["--verify", "--load-ca-certificate", fixture.directory.authorityCertificate,
                                                                    "--infile", fixture.directory.serverCertificate])
        #expect(verify.exitCode == 0)
    }

    @Test func deviceProfileCarriesTheAuthority() async throws {
        let fixture = try TLSFixture()
        let check = try await python("""
            import plistlib, ssl, sys
            p = plistlib.load(open(sys.argv[1], 'rb'))
            root = p['PayloadContent'][0]
            der = ssl.PEM_cert_to_DER_cert(open(sys.argv[2]).read())
            print(p['PayloadType'], root['PayloadType'], root['PayloadContent'] == der, p['PayloadUUID'] != root['PayloadUUID'])
            """, fixture.directory.profile, fixture.directory.authorityCertificate)
        #expect(check.trimmingCharacters(in: .whitespacesAndNewlines) == "Configuration com.apple.security.root True True")
    }

    @Test func badMaterialNamesTheFileAndTheProblem() throws {
        let fixture = try TLSFixture()
        let d = fixture.directory
        // A certificate that is not one.
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: d.serverCertificate))
        let garbage = try expectError { try ServerIdentity.load(from: d) }
        #expect(garbage.file == d.serverCertificate && garbage.problem.hasPrefix("not a PEM certificate (GnuTLS: "), "\(garbage)")
        // A key from another pair.
        _ = try d.initialize()
        try FileManager.default.removeItem(atPath: d.serverKey)
        try FileManager.default.copyItem(atPath: d.authorityKey, toPath: d.serverKey)
        let mismatch = try expectError { try ServerIdentity.load(from: d) }
        #expect(mismatch.file == d.serverKey && mismatch.problem.hasPrefix("is not the key of \(d.serverCertificate)"))
        // Expired.
        _ = try d.initialize()
        let expired = try expectError { try ServerIdentity.load(from: d, now: Date().addingTimeInterval(400 * 86_400)) }
        #expect(expired.file == d.serverCertificate && expired.problem.hasPrefix("expired on "))
        // Missing.
        try FileManager.default.removeItem(atPath: d.serverKey)
        let missing = try expectError { try ServerIdentity.load(from: d) }
        #expect(missing.file == d.serverKey && missing.problem.contains("stubd tls init"))
        // An authority without its key is not silently replaced.
        try FileManager.default.removeItem(atPath: d.authorityKey)
        let half = try expectError { try d.initialize() }
        #expect(half.file == d.authorityKey && half.problem.hasPrefix("is missing but \(d.authorityCertificate) exists"))
        let badHost = try expectError { try TLSDirectory(path: d.path).initialize(hosts: ["no spaces.test"]) }
        #expect(badHost.description == "--host \"no spaces.test\" is not a host name or an IP address")
    }

    private func expectError(_ body: () throws -> Any) throws -> TLSError {
        do {
            _ = try body()
        } catch let error as TLSError {
            return error
        }
        Issue.record("expected a TLSError")
        return TLSError("none")
    }

    /// GnuTLS's certtool: `certtool` on Linux; Homebrew installs it as `gnutls-certtool` beside
    /// Apple's own, unrelated `certtool`.
    private func certtool(_ arguments: [String]) async throws -> Curl.Result {
        #if os(Linux)
        let name = "certtool"
        #else
        let name = "gnutls-certtool"
        #endif
        return try await Subprocess.run("/usr/bin/env", [name] + arguments)
    }

    private func python(_ script: String, _ arguments: String...) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script] + arguments)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout
    }
}
