#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Where the fleet's store is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`. The password may
/// instead come from a file (`--state-password-file`), so it stays out of process listings.
package struct StateStoreURL: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var database: Int
    package var user: String?
    package var password: String?
    /// `rediss://`: TLS to the store.
    package var tls: Bool
    /// PEM authorities the store's certificate may chain to, beside the system's (`--state-ca`).
    package var authorities: String?

    /// Reads a URL; the error says what was expected.
    package init(_ text: String, passwordFile: String? = nil, authorities: String? = nil) throws(StoreURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw StoreURLError("expected redis://HOST:PORT[/DB], found \"\(text)\"")
        }
        guard ["redis", "valkey", "rediss", "valkeys"].contains(scheme) else {
            throw StoreURLError("expected a redis:// (or rediss:// for TLS) URL, found the scheme \"\(scheme)\"")
        }
        tls = scheme == "rediss" || scheme == "valkeys"
        self.authorities = authorities
        guard let host = components.host, !host.isEmpty else { throw StoreURLError("expected a host in \"\(text)\"") }
        self.host = host
        port = components.port ?? 6379
        let path = components.path.drop { $0 == "/" }
        guard let database = path.isEmpty ? 0 : Int(path), database >= 0 else {
            throw StoreURLError("expected a database number after the host, found \"/\(path)\"")
        }
        self.database = database
        user = components.user.flatMap { $0.isEmpty ? nil : PathDecoding.decodedWhole($0) }
        password = components.password.map { PathDecoding.decodedWhole($0) }
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw StoreURLError("cannot read the password file \(passwordFile)")
            }
            // The file's text without the whitespace around it (a trailing newline, mostly).
            var text = Substring(String(decoding: data, as: UTF8.self))
            while text.first?.isWhitespace == true { text.removeFirst() }
            while text.last?.isWhitespace == true { text.removeLast() }
            password = String(text)
        }
    }

    /// The URL without its password, for health and the log.
    package var redacted: String {
        let who = password != nil ? "\(user ?? ""):***@" : user.map { "\($0)@" } ?? ""
        return (tls ? "rediss://" : "redis://") + "\(who)\(host.contains(":") ? "[\(host)]" : host):\(port)" + (database == 0 ? "" : "/\(database)")
    }
}

/// A `--state` URL that cannot be used, and why.
package struct StoreURLError: Error, CustomStringConvertible, Sendable {
    /// What was expected.
    package let description: String

    init(_ description: String) { self.description = description }
}
