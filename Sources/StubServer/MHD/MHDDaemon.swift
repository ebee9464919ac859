internal import CMicroHTTPD
import StubCore
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one running libmicrohttpd daemon: started over a bound socket, stopped once.
final class MHDDaemon: @unchecked Sendable {
    // @unchecked: `pointer` is written only by `stop`, which `StubServer` calls under its own lock.
    private var pointer: OpaquePointer?
    /// The key and certificate PEM handed to libmicrohttpd as C strings; freed with the daemon.
    private let pemTexts: [UnsafeMutablePointer<CChar>]

    /// Starts serving `socket` with epoll (poll for TLS) polling threads and suspend/resume, over TLS with
    /// `tls`'s certificate when given. `bridge` is handed to libmicrohttpd unretained: the caller keeps it
    /// alive until `stop` returns. With `listens` false libmicrohttpd does not accept on `socket`: the
    /// HTTPS front (`H2Engine`) accepts and hands over the sockets of clients that do not offer h2 (`add`).
    init(socket: ListenSocket, configuration: StubServerConfiguration, bridge: RequestBridge, tls: StubServerConfiguration.TLS? = nil,
         listens: Bool = true) throws(StubServerError) {
        pemTexts = tls.map { [$0.keyPEM, $0.certificatePEM].compactMap { strdup(String(decoding: $0, as: UTF8.self)) } } ?? []
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_ALLOW_UPGRADE.rawValue | MHD_USE_TURBO.rawValue
        // HTTPS always polls: libmicrohttpd's epoll loop loses the last bytes an upgraded TLS
        // connection writes (a wss:// close frame went missing in 4 to 9 conversations of 10, on
        // 0.9.75 and on 1.0.1; none of 10 with poll).
        let epoll = tls == nil && EventLoopChoice.usesEpoll(configuration.eventLoop)
        flags |= epoll ? MHD_USE_EPOLL.rawValue : MHD_USE_POLL.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if !listens { flags |= MHD_USE_NO_LISTEN_SOCKET.rawValue }
        // Not MHD_OPTION_STRICT_FOR_CLIENT: in 0.9.75 it answers a missing Host with a 400 whose head
        // it writes twice, and closes on a space in the target without a word. `RequestFraming`
        // and `PathDecoding` refuse both with one clear 400 instead. A library that has a
        // client-discipline level is asked for the one that refuses folded lines (`MHDLibrary`).
        var options = listens ? [MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.fd), ptr_value: nil)] : []
        options += [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.daemonConnectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: MHDDaemon.timesIdleConnections ? configuration.idleTimeoutSeconds : 0,
                           ptr_value: nil),
        ]
        if tls != nil {
            guard pemTexts.count == 2 else { throw .tlsFailed }
            flags |= MHD_USE_TLS.rawValue
            // libmicrohttpd hands both to GnuTLS, which copies them, while the daemon starts.
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(pemTexts[0])))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(pemTexts[1])))
        }
        if let discipline = MHDLibrary.disciplineOption { options.append(discipline) }
        if configuration.ioThreads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.ioThreads, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let cls = Unmanaged.passUnretained(bridge).toOpaque()
        pointer = options.withUnsafeMutableBufferPointer { buffer in
            CMHD_start_daemon(UInt32(flags), cls, stubdAcceptPolicy, stubdAccessHandler, stubdRequestCompleted, stubdRequestStarted,
                              stubdConnectionChanged, buffer.baseAddress)
        }
        guard pointer != nil else { throw tls == nil ? .transportFailed : .tlsFailed }
    }

    /// Whether libmicrohttpd's own idle timer closes quiet connections. It reads the clock about
    /// eight times per request. On Linux its work is done elsewhere: `ConnectionAdmission`'s
    /// sweeper closes connections idle past the idle time, and TCP_USER_TIMEOUT aborts those
    /// whose client stopped reading an answer (`stubdConnectionChanged`). Other platforms keep it.
    static var timesIdleConnections: Bool {
        #if os(Linux)
        false
        #else
        true
        #endif
    }

    deinit {
        for text in pemTexts { free(text) }
    }

    /// Serves `fd`, a client accepted elsewhere, as if it had been accepted here (the accept policy
    /// runs as usual). libmicrohttpd owns the socket from now on: it closes it itself when it cannot
    /// take it, so the caller never does. Called from the front's thread, which `ServerParts.stop`
    /// stops before it stops the daemon.
    func add(_ fd: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) {
        guard let pointer else {
            close(fd)
            return
        }
        // Refused (the connection limit, no memory), the socket was closed by libmicrohttpd: the
        // client sees its connection close, as at an over-full listener.
        _ = MHD_add_connection(pointer, fd, address, length)
    }

    /// Stops the daemon and closes the listening socket. Every suspended connection must have been
    /// resumed and handled first (`SuspendedConnections.drain`): MHD aborts the process otherwise.
    /// No MHD_quiesce_daemon: with a thread pool it races the workers over the listen socket's epoll
    /// registration and panics.
    func stop() {
        guard let pointer else { return }
        MHD_stop_daemon(pointer)
        self.pointer = nil
    }
}
