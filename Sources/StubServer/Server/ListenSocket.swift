import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bound, listening TCP socket made before libmicrohttpd starts, so bind errors
/// (address in use, bad host) reach the user with their real cause.
struct ListenSocket {
    let fd: Int32
    let port: Int
    let isIPv6: Bool
    /// The socket's inode, read when it was made (see `closeIfStillOurs`).
    var inode: UInt64? = nil

    /// Closes the socket unless a library it was handed to closed it already: libmicrohttpd
    /// closes its listen socket itself when a start fails part-way (0.9.75, on a TLS key it
    /// refuses), and a second close would close whatever reused the number since.
    func closeIfStillOurs() {
        guard let inode, LibC.inode(of: fd) == inode else { return }
        LibC.close(fd)
    }

    /// The sockets for `host`: for `localhost` one on 127.0.0.1 and one on ::1 with the same port
    /// (clients resolve localhost to either first), or 127.0.0.1 alone where IPv6 is missing; for
    /// any other host the one socket `open` makes.
    static func openAll(host: String, port: Int) throws(StubServerError) -> [ListenSocket] {
        guard host == "localhost" else { return [try open(host: host, port: port)] }
        // With port 0 the IPv4 socket picks the port; ::1 may have it taken by someone else: retry.
        for _ in 0..<8 {
            let v4 = try open(host: "127.0.0.1", port: port)
            do {
                return [v4, try open(host: "::1", port: v4.port)]
            } catch .addressInUse where port == 0 {
                close(v4.fd)
            } catch .system(_, let code) where code == EADDRNOTAVAIL || code == EAFNOSUPPORT {
                return [v4]
            } catch {
                close(v4.fd)
                throw error
            }
        }
        throw .addressInUse(host: host, port: port)
    }

    /// The plain HTTP sockets (none with `tls.only`) and the HTTPS ones (none without `tls`),
    /// all on `configuration.host`. On failure none stays open.
    static func openListeners(_ configuration: StubServerConfiguration) throws(StubServerError) -> (plain: [ListenSocket], secure: [ListenSocket]) {
        let plain = configuration.tls?.only == true ? [] : try openAll(host: configuration.host, port: configuration.port)
        guard let tls = configuration.tls else { return (plain, []) }
        do {
            return (plain, try openAll(host: configuration.host, port: tls.port))
        } catch {
            for socket in plain { close(socket.fd) }
            throw error
        }
    }

    static func open(host: String, port: Int, backlog: Int32 = 4096) throws(StubServerError) -> ListenSocket {
        guard (0...65535).contains(port) else { throw .invalidAddress("port \(port) is out of range 0-65535") }
        let name = host == "localhost" ? "127.0.0.1" : host
        let address: Address
        if let v4 = LibC.ipv4Address(name, port: port) {
            address = .v4(v4)
        } else if let v6 = LibC.ipv6Address(name.trimmingBrackets(), port: port) {
            address = .v6(v6)
        } else {
            throw .invalidAddress("host \"\(host)\" is not an IPv4 or IPv6 address (or localhost)")
        }
        do {
            return try bind(address, backlog: backlog)
        } catch let error where error.errno == EADDRINUSE {
            throw .addressInUse(host: host, port: port)
        } catch {
            throw StubServerError(error, address: "\(host):\(port)")
        }
    }

    private enum Address {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private static func bind(_ address: Address, backlog: Int32) throws(SystemCallError) -> ListenSocket {
        let isIPv6: Bool
        if case .v6 = address { isIPv6 = true } else { isIPv6 = false }
        let fd = try SystemCall.run("socket") { socket(isIPv6 ? AF_INET6 : AF_INET, LibC.streamSocket, 0) }
        do {
            var one: Int32 = 1
            try SystemCall.run("setsockopt SO_REUSEADDR") { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
            switch address {
            case .v4(var v4):
                try SystemCall.run("bind") { withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } }
            case .v6(var v6):
                try SystemCall.run("bind") { withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } } }
            }
            try SystemCall.run("listen") { listen(fd, backlog) }
            var storage = sockaddr_in6()
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            try SystemCall.run("getsockname") { withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } } }
            return ListenSocket(fd: fd, port: LibC.port(of: storage), isIPv6: isIPv6, inode: LibC.inode(of: fd))
        } catch {
            close(fd)
            throw error
        }
    }
}

extension String {
    func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
