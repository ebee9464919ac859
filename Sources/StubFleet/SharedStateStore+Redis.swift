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

extension SharedStateStore {
    /// A store on Valkey or Redis at `url` (`redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`;
    /// `rediss://` for TLS, checked against the system's authorities plus those in the PEM file
    /// `authorities`), for `StubServerConfiguration.sharedState`. Nothing is connected until the
    /// server starts; a store that does not answer then is retried in the background while the
    /// server answers from its stub files. `replica` names this server in the journal and health
    /// (default: host name and process id). Throws `StateStoreURLError` for a URL that cannot be used.
    public static func redis(_ url: String, passwordFile: String? = nil, authorities: String? = nil,
                             replica: String? = nil) throws(StateStoreURLError) -> SharedStateStore {
        let parsed: StateStoreURL
        do { parsed = try StateStoreURL(url, passwordFile: passwordFile, authorities: authorities) } catch {
            throw StateStoreURLError(description: error.description)
        }
        return SharedStateStore(RedisControlState(url: parsed, replica: replica ?? defaultReplicaName()), memoryStore: RedisMemoryStore(url: parsed))
    }

    /// The host name and the process id: unique on one machine and across containers.
    static func defaultReplicaName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "stubd"
        return "\(host)-\(getpid())"
    }
}

/// A state store URL that cannot be used, and what was expected.
public struct StateStoreURLError: Error, CustomStringConvertible, Sendable {
    /// What is wrong with the URL.
    public let description: String
}
