import Foundation
import StubServer
import StubTLS

/// A fresh `stubd tls init` folder for one test, removed afterwards.
package final class TLSFixture: Sendable {
    package let directory: TLSDirectory
    package let outcome: TLSDirectory.Outcome

    package init(hosts: [String] = []) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-tls-\(UUID().uuidString)").path
        directory = TLSDirectory(path: path)
        outcome = try directory.initialize(hosts: hosts)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory.path) }

    /// HTTPS beside plain HTTP, both on free ports.
    package func configure(_ configuration: inout StubServerConfiguration, only: Bool = false) throws {
        let identity = try ServerIdentity.load(from: directory)
        configuration.tls = .init(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM, port: 0, only: only)
    }
}

extension StubServer {
    /// `tlsBaseURL` + path (with query).
    package func tlsURL(_ pathAndQuery: String) -> URL {
        URL(string: tlsBaseURL!.absoluteString + pathAndQuery)!
    }
}
