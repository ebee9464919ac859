import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a server could not start or reload.
public enum StubServerError: Error, Sendable, CustomStringConvertible {
    /// The stub directory has problems; nothing was served.
    case invalidStubs(StubLoadFailure)
    /// Another process holds the port.
    case addressInUse(host: String, port: Int)
    /// The host or port cannot be bound.
    case invalidAddress(String)
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// The HTTP transport (libmicrohttpd) refused to start.
    case transportFailed
    /// libmicrohttpd refused to start with the TLS key material.
    case tlsFailed

    /// The old name of `transportFailed`.
    @available(*, deprecated, renamed: "transportFailed")
    public static var daemonFailed: StubServerError { .transportFailed }

    /// The error for a failed system call; `address` names what was being bound, if anything.
    init(_ error: SystemCallError, address: String? = nil) {
        self = .system(call: address.map { "\(error.call) \($0)" } ?? error.call, errno: error.errno)
    }

    /// A message for people.
    public var description: String {
        switch self {
        case .invalidStubs(let failure): return "the stub directory has problems:\n\(failure)"
        case .addressInUse(let host, let port): return "\(host):\(port) is already in use; stop the other process or pick another --port (0 picks a free one)"
        case .invalidAddress(let why): return why
        case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
        case .transportFailed: return "libmicrohttpd could not start the daemon"
        case .tlsFailed: return "libmicrohttpd could not start HTTPS with the certificate and key given"
        }
    }
}
