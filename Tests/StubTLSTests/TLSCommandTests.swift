import Foundation
import Testing
import StubTestSupport

/// `stubd tls init` and `stubd serve --tls` as a developer runs them.
@Suite(.timeLimit(.minutes(3))) struct TLSCommandTests {
    func stubd(_ arguments: [String], environment: [String: String]? = nil) async throws -> Curl.Result {
        try await Subprocess.run(Repository.stubdBinary, arguments, environment: environment)
    }

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stubd-tls-cli-\(UUID().uuidString)").path
    }

    @Test func initPrintsWhatItMadeAndHowToTrustIt() async throws {
        let dir = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try await stubd(["tls", "init", "--dir", dir, "--host", "api.test"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Created the certificate authority stubd local CA on "))
        #expect(first.stdout.contains("Issued the server certificate for localhost, 127.0.0.1, ::1, "))
        #expect(first.stdout.contains("api.test, valid until "))
        #expect(first.stdout.contains("xcrun simctl keychain booted add-root-cert \(dir)/ca.pem"))
        #expect(first.stdout.contains("security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db \(dir)/ca.pem"))
        #expect(first.stdout.contains("\(dir)/stubd-ca.mobileconfig"))
        #expect(first.stdout.contains("curl --cacert \(dir)/ca.pem https://localhost:8443/__stubd/health"))
        let second = try await stubd(["tls", "init", "--dir", dir])
        #expect(second.stdout.hasPrefix("Kept the certificate authority stubd local CA on "))
        let bad = try await stubd(["tls", "init", "--dir", dir, "--host", "a b"])
        #expect(bad.exitCode == 1 && bad.stderr == "stubd: --host \"a b\" is not a host name or an IP address\n")
        let usage = try await stubd(["tls", "renew"])
        #expect(usage.exitCode == 2 && usage.stderr.hasPrefix("error: unknown tls command \"renew\""))
    }

    @Test func serveTLSFromFlagsAndFromTheEnvironment() async throws {
        let dir = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try await stubd(["tls", "init", "--dir", dir])
        let stubs = Repository.shippedStubs.path
        let byFlags = try RunningDaemon(arguments: ["serve", "--stubs", stubs, "--host", "127.0.0.1", "--port", "0", "--tls-port", "0", "--tls-dir", dir])
        let byEnvironment = try RunningDaemon(arguments: ["serve", "--stubs", stubs, "--host", "127.0.0.1", "--port", "0"],
                                              environment: ["STUBD_TLS": "1", "STUBD_TLS_DIR": dir, "STUBD_TLS_PORT": "0"])
        for daemon in [byFlags, byEnvironment] {
            let line = daemon.servingLine
            let https = try #require(line.range(of: "HTTPS on https://127.0.0.1:"), "\(line)")
            let port = line[https.upperBound...].prefix { $0.isNumber }
            let got = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", "\(dir)/ca.pem", "https://localhost:\(port)/api/v1/users"])
            #expect(got.stdout == "200")
            #expect(daemon.terminate(signal: SIGTERM).status == 0)
        }
    }

    @Test func missingOrBrokenKeyMaterialStopsServeWithTheFileNamed() async throws {
        let dir = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nowhere = try await stubd(["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--tls", "--tls-dir", dir])
        #expect(nowhere.exitCode == 2 && nowhere.stderr.hasPrefix("error: --tls-dir expects an existing folder, got \"\(dir)\""), "\(nowhere.stderr)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let missing = try await stubd(["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--tls", "--tls-dir", dir])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "stubd: --tls-dir: cannot serve HTTPS: \(dir)/server.pem: does not exist; run `stubd tls init --tls-dir \(dir)` to create the certificate authority and the server certificate\n")
        _ = try await stubd(["tls", "init", "--dir", dir])
        try Data("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/server-key.pem"))
        let broken = try await stubd(["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--tls-only", "--tls-dir", dir])
        #expect(broken.exitCode == 2)
        #expect(broken.stderr.hasPrefix("stubd: --tls-dir: cannot serve HTTPS: \(dir)/server-key.pem: not a PEM private key (GnuTLS: "), "\(broken.stderr)")
        let badSwitch = try await stubd(["serve", "--port", "0"], environment: ["STUBD_TLS": "maybe"])
        #expect(badSwitch.exitCode == 2 && badSwitch.stderr.hasPrefix("error: STUBD_TLS expects 1 or 0 (true/false, yes/no, on/off), got \"maybe\""), "\(badSwitch.stderr)")
    }
}
