// Foundation, not FoundationEssentials: URL components, percent decoding and the directory walk.
import Foundation

/// Where the fleet's store is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`. The password may
/// instead come from a file (`--state-password-file`), so it stays out of process listings.
package struct StateStoreURL: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var database: Int
    package var user: String?
    package var password: String?

    /// Reads a URL; the error says what was expected.
    package init(_ text: String, passwordFile: String? = nil) throws(StoreURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw StoreURLError("expected redis://HOST:PORT[/DB], found \"\(text)\"")
        }
        if scheme == "rediss" || scheme == "valkeys" {
            throw StoreURLError("rediss:// (TLS to the store) needs hiredis 1.0 or later built with TLS; this stubd links hiredis 0.14 without it. Reach the store over a private network or a TLS tunnel (stunnel, a service mesh)")
        }
        guard scheme == "redis" || scheme == "valkey" else {
            throw StoreURLError("expected a redis:// URL, found the scheme \"\(scheme)\"")
        }
        guard let host = components.host, !host.isEmpty else { throw StoreURLError("expected a host in \"\(text)\"") }
        self.host = host
        port = components.port ?? 6379
        let path = components.path.drop { $0 == "/" }
        guard let database = path.isEmpty ? 0 : Int(path), database >= 0 else {
            throw StoreURLError("expected a database number after the host, found \"/\(path)\"")
        }
        self.database = database
        user = components.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        password = components.password.flatMap { $0.removingPercentEncoding }
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw StoreURLError("cannot read the password file \(passwordFile)")
            }
            password = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The URL without its password, for health and the log.
    package var redacted: String {
        let who = password != nil ? "\(user ?? ""):***@" : user.map { "\($0)@" } ?? ""
        return "redis://\(who)\(host.contains(":") ? "[\(host)]" : host):\(port)" + (database == 0 ? "" : "/\(database)")
    }
}

/// A `--state` URL that cannot be used, and why.
package struct StoreURLError: Error, CustomStringConvertible, Sendable {
    /// What was expected.
    package let description: String

    init(_ description: String) { self.description = description }
}
