import StubCore
import StubHTTP2
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTTPS listeners: with HTTP/2 on, the front (`H2Engine`) accepts on them, serves clients
/// offering `h2` itself and hands every other socket to a libmicrohttpd TLS daemon that has no
/// listener of its own; with it off, each daemon accepts on its listener as before.
extension StubServer {
    static func serveHTTPS(_ sockets: [ListenSocket], tls: StubServerConfiguration.TLS, _ running: ServerParts,
                           configuration: StubServerConfiguration, bridge: RequestBridge, control: StubControl) throws {
        var daemons: [MHDDaemon] = []
        for socket in sockets {
            let daemon = try MHDDaemon(socket: socket, configuration: configuration, bridge: bridge, tls: tls, listens: !tls.http2)
            running.daemons.append(daemon)
            daemons.append(daemon)
            if !tls.http2 { running.socketTaken(socket) }
        }
        guard tls.http2 else { return }
        let store = bridge.store
        let services = H2Services(environment: bridge.environment, catalog: { store.current.h2 }, admission: bridge.admission, jobs: bridge.jobs,
                                  handOff: { [daemons] fd, listener, address, length in daemons[listener].add(fd, address: address, length: length) })
        do {
            running.h2 = try H2Engine(listeners: sockets.map(\.fd), certificatePEM: tls.certificatePEM, keyPEM: tls.keyPEM, services: services,
                                      limits: configuration.h2Limits(stalledSendLimitMs: bridge.stalledSendLimitMs),
                                      useEpoll: EventLoopChoice.usesEpoll(configuration.eventLoop))
        } catch where error.call.hasPrefix("gnutls") {
            throw StubServerError.tlsFailed
        } catch {
            throw StubServerError(error)
        }
        for socket in sockets { running.socketTaken(socket) }
        // Holds and deferred replies wake HTTP/2 streams through the engine, the rest through
        // libmicrohttpd's suspensions; a ticket says which by its bit.
        let suspensions = bridge.suspensions
        // Weak: the control outlives a stopped server, and must not keep its engine.
        weak let engine = running.h2
        control.setReleaser { tickets in
            for ticket in tickets {
                if ticket & H2Engine.ticketBit != 0 { engine?.resumeEarly(ticket) } else { suspensions.resumeEarly(ticket) }
            }
        }
    }
}
