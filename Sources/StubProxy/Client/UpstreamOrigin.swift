#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where upstream calls go: scheme, host and port of the upstream URL, and its path, which
/// every forwarded request's path is appended to.
struct UpstreamOrigin: Hashable, Sendable {
    /// True for `https`.
    let secure: Bool
    /// The host name or address, without IPv6 brackets.
    let host: String
    let port: Int
    /// The upstream URL's path without a trailing slash (`""` for the root).
    let basePath: String

    /// The origin of an `http` or `https` URL with a host; throws `badURL` otherwise.
    init(_ url: URL) throws(UpstreamFailure) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { throw UpstreamFailure(.badURL, "the upstream must be an http:// or https:// URL: \(url.absoluteString)") }
        guard var host = url.host, !host.isEmpty else { throw UpstreamFailure(.badURL, "the upstream URL has no host: \(url.absoluteString)") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        secure = scheme == "https"
        self.host = host
        port = url.port ?? (secure ? 443 : 80)
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
    }

    /// The `Host` header: the host, bracketed when IPv6, with the port unless it is the scheme's own.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// `scheme://host[:port]`, as messages and captures name it.
    var text: String { "\(secure ? "https" : "http")://\(hostHeader)" }

    /// The addresses `host` resolves to, IPv6 and IPv4 in the resolver's order (a blocking call).
    func resolve() -> Result<[SocketAddress], UpstreamFailure> {
        var hints = addrinfo()
        hints.ai_socktype = LibC.streamType
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(UpstreamFailure(.cannotFindHost, "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr, entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                addresses.append(SocketAddress(address, length: entry.pointee.ai_addrlen))
            }
            next = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(UpstreamFailure(.cannotFindHost, "\(host) has no IPv4 or IPv6 address")) : .success(addresses)
    }
}

/// One resolved socket address, copied out of `getaddrinfo`'s list.
struct SocketAddress: Sendable {
    let family: Int32
    private let bytes: [UInt8]

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        family = Int32(address.pointee.sa_family)
        bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// Calls `body` with the address as `connect(2)` takes it.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        bytes.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
    }
}
