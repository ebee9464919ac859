// C structs whose fields differ between glibc and Darwin, built in one place: `timeval`'s
// microseconds are an Int on glibc and an Int32 on Darwin; the socket addresses have a length
// byte first on Darwin and a 16-bit family on glibc. Code elsewhere asks these helpers instead
// of writing the fields, so that a Mac build type-checks what Linux never sees
// (`scripts/check-portable.sh` fails on the raw forms outside StubSystem).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibC {
    /// A `timeval` of `milliseconds` (0 or more), for SO_RCVTIMEO, SO_SNDTIMEO, select(2) and hiredis.
    package static func timeval(milliseconds: Int) -> timeval {
        let ms = max(0, milliseconds)
        return SystemTimeval(tv_sec: time_t(ms / 1000), tv_usec: suseconds_t((ms % 1000) * 1000))
    }

    /// A `timeval` of `seconds`, fractions included.
    package static func timeval(seconds: Double) -> timeval {
        timeval(milliseconds: Int((max(0, seconds) * 1000).rounded()))
    }

    /// An IPv4 socket address for `port` (host byte order) at the numeric `host`, or nil when
    /// `host` is not an IPv4 address.
    package static func ipv4Address(_ host: String, port: Int) -> sockaddr_in? {
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        return address
    }

    /// 127.0.0.1 at `port`.
    package static func loopbackAddress(port: Int) -> sockaddr_in {
        ipv4Address("127.0.0.1", port: port)!
    }

    /// An IPv6 socket address for `port` at the numeric `host` (without brackets), or nil when
    /// `host` is not an IPv6 address.
    package static func ipv6Address(_ host: String, port: Int) -> sockaddr_in6? {
        var address = sockaddr_in6()
        guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return nil }
        #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        return address
    }

    /// The port of a bound IPv4 or IPv6 address read with getsockname(2) into a `sockaddr_in6`
    /// (`sin_port` and `sin6_port` sit at the same offset on both platforms).
    package static func port(of storage: sockaddr_in6) -> Int {
        Int(UInt16(bigEndian: storage.sin6_port))
    }

    /// An address with no family, for connect(2) to dissolve a TCP association.
    package static func unspecifiedAddress() -> sockaddr {
        var address = sockaddr()
        #if canImport(Darwin)
        address.sa_len = UInt8(MemoryLayout<sockaddr>.size)
        #endif
        address.sa_family = sa_family_t(AF_UNSPEC)
        return address
    }

    /// The name of a directory entry from readdir(3), read where it lies: glibc's records are
    /// only as long as their name, so copying the whole `d_name` array would read past the end
    /// of the buffer.
    package static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        String(cString: (UnsafeRawPointer(entry) + direntNameOffset).assumingMemoryBound(to: CChar.self))
    }

    private static let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0

    /// read(2) into `bytes` from `offset` to its end; what read(2) returns.
    package static func read(_ fd: Int32, into bytes: inout [UInt8], from offset: Int) -> Int {
        bytes.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress! + offset, buffer.count - offset) }
    }
}

#if canImport(Glibc)
private typealias SystemTimeval = Glibc.timeval
#else
private typealias SystemTimeval = Darwin.timeval
#endif
