import StubCore
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the HTTP/2 engine needs of the server it serves for: the lifecycle's environment, the
/// catalog now, admission, deferred work, and libmicrohttpd for the clients that do not offer h2.
package struct H2Services: Sendable {
    /// Plans, journals and logs (shared with HTTP/1.1).
    package let environment: LifecycleEnvironment
    /// The catalog being served now; a stream keeps the one it started with.
    package let catalog: @Sendable () -> H2Catalog
    /// Who may connect, and the head deadlines of connections.
    package let admission: ConnectionAdmission
    /// Makes deferred replies (reloads, upstream calls).
    package let jobs: DeferredJobs
    /// Hands a socket whose client does not offer `h2` to libmicrohttpd's TLS daemon of listener
    /// `listener`, untouched. libmicrohttpd owns it from then on, and closes it if it cannot take it.
    package let handOff: @Sendable (_ fd: Int32, _ listener: Int, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Void

    /// Everything the engine reaches outside itself.
    package init(environment: LifecycleEnvironment, catalog: @escaping @Sendable () -> H2Catalog, admission: ConnectionAdmission,
                 jobs: DeferredJobs,
                 handOff: @escaping @Sendable (_ fd: Int32, _ listener: Int, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Void) {
        self.environment = environment
        self.catalog = catalog
        self.admission = admission
        self.jobs = jobs
        self.handOff = handOff
    }
}
