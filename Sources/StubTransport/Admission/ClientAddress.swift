import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client's IP address as a hashable value, for counting connections per client. An IPv4
/// address reached over IPv6 (`::ffff:127.0.0.1`) is the same client as the plain IPv4 address.
package struct ClientAddress: Hashable, CustomStringConvertible {
    /// The address as 16 bytes (IPv4 as an IPv4-mapped IPv6 address).
    package let high: UInt64
    package let low: UInt64

    /// The address of `address` (IPv4 or IPv6); nil for other families.
    package init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET: self.init(mapping: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr)
        case AF_INET6: self.init(bytes: withUnsafeBytes(of: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr) { Array($0) })
        default: return nil
        }
    }

    /// An IPv4 address as its IPv4-mapped IPv6 form.
    package init(mapping v4: in_addr) {
        self.init(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: v4) { Array($0) })
    }

    /// An address from its 16 bytes.
    package init(bytes: [UInt8]) {
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 16 bytes.
    package var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    /// True for an IPv4 address (plain or IPv4-mapped).
    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// True for 127.0.0.0/8 and ::1.
    package var isLoopback: Bool {
        isIPv4 ? (low >> 24) & 0xFF == 127 : high == 0 && low == 1
    }

    /// `127.0.0.1`, or the IPv6 text form.
    package var description: String {
        let raw = bytes
        if isIPv4 { return raw[12..<16].map(String.init).joined(separator: ".") }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        // An IPv6 address always fits INET6_ADDRSTRLEN bytes: ENOSPC, its one error, cannot happen.
        raw.withUnsafeBytes { _ = inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address of a host string (an IP literal), for deciding whether a bind address is loopback.
    package init?(literal: String) {
        var host = literal
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var v6 = in6_addr()
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(mapping: v4)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: v6) { Array($0) })
        } else {
            return nil
        }
    }
}
