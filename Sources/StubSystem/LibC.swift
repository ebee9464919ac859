// The handful of C library calls whose Swift form differs between glibc and Darwin, wrapped once.
// Each file that calls libc imports it itself (Glibc or Darwin); nothing is re-exported.
import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// C library calls whose Swift names clash with names in this project, or whose types differ
/// between glibc and Darwin.
package enum LibC {
    /// The calling thread's identity, for telling one thread from another (never anything else).
    package static func thisThread() -> UInt {
        UInt(CSystem_this_thread())
    }

    /// True when the peer of a connected socket has closed its side (a read would return end of
    /// file now): one non-blocking peek, which leaves any waiting bytes where they are.
    package static func peerClosed(_ fd: Int32) -> Bool {
        peek(fd).count == 0
    }

    /// One non-blocking `recv` of a byte with MSG_PEEK: what it returned, and errno after it.
    package static func peek(_ fd: Int32) -> (count: Int, errno: Int32) {
        var byte: UInt8 = 0
        #if canImport(Glibc)
        let n = Glibc.recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        #else
        let n = Darwin.recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT)
        #endif
        return (n, errno)
    }

    /// read(2).
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// close(2), for types whose own `close` method hides the global function.
    package static func close(_ fd: Int32) {
        // Nothing to do about a failure: the descriptor is released either way (see `SystemCall`).
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// write(2).
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// send(2) without SIGPIPE: MSG_NOSIGNAL on Linux; Darwin has no such flag, so the socket is
    /// marked SO_NOSIGPIPE first.
    package static func sendNoSignal(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #else
        var one: Int32 = 1
        // It fails only for a descriptor that is no socket, which the send then reports (ENOTSOCK, EBADF).
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return Darwin.send(fd, buffer, count, 0)
        #endif
    }

    /// bind(2).
    package static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.bind(fd, address, length)
        #else
        Darwin.bind(fd, address, length)
        #endif
    }

    /// A TCP socket type for socket(2), close-on-exec where the platform can say so at creation.
    package static var streamSocket: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// SOCK_STREAM alone, as getaddrinfo(3)'s hints take it (no creation flags).
    package static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// RLIMIT_NOFILE as getrlimit(2) and setrlimit(2) take it.
    package static var fileLimit: Int32 {
        #if canImport(Glibc)
        Int32(RLIMIT_NOFILE.rawValue)
        #else
        RLIMIT_NOFILE
        #endif
    }

    /// A file's modification time from stat(2), as seconds and nanoseconds.
    package static func modified(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Glibc)
        (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #else
        (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #endif
    }

    /// The bytes the allocator gave the block at `pointer` (at least what was asked for): how far
    /// an object spans, for cache hints.
    package static func allocatedBytes(_ pointer: UnsafeRawPointer) -> Int {
        Int(CSystem_allocated_bytes(pointer))
    }

    /// Natural logarithm, cosine and exponential, for sampled delays.
    package static func log(_ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.log(x)
        #else
        Darwin.log(x)
        #endif
    }

    /// Cosine.
    package static func cos(_ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.cos(x)
        #else
        Darwin.cos(x)
        #endif
    }

    /// e to the power `x`.
    package static func exp(_ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.exp(x)
        #else
        Darwin.exp(x)
        #endif
    }

    /// Dissolves a TCP connection's association so that the kernel answers the peer with RST (the
    /// `reset` fault): connect(2) with AF_UNSPEC on Linux. Darwin has no such call; there the
    /// zero linger set before, and libmicrohttpd closing without a shutdown (MHD_USE_TURBO), reset.
    package static func dissolveConnection(_ fd: Int32) throws(SystemCallError) {
        #if os(Linux)
        var address = unspecifiedAddress()
        try SystemCall.run("connect AF_UNSPEC") { Glibc.connect(fd, &address, socklen_t(MemoryLayout<sockaddr>.size)) }
        #endif
    }

    /// A condition variable whose timed waits run on CLOCK_MONOTONIC (Linux), or that waits for a
    /// relative time (Darwin, which cannot choose the clock): see `wait(_:_:untilNs:)`.
    package static func initMonotonicCondition(_ condition: UnsafeMutablePointer<pthread_cond_t>) {
        #if canImport(Glibc)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #else
        pthread_cond_init(condition, nil)
        #endif
    }

    /// Waits on `condition` until `deadline` nanoseconds on CLOCK_MONOTONIC (or a signal).
    package static func wait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
                             untilNs deadline: UInt64) {
        #if canImport(Glibc)
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &ts)
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowNs = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        let left = deadline > nowNs ? deadline - nowNs : 0
        var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
        pthread_cond_timedwait_relative_np(condition, mutex, &ts)
        #endif
    }

    /// The highest open-file limit the process may ask for: the hard limit on Linux; on macOS at
    /// most OPEN_MAX (10,240), since setrlimit refuses RLIM_INFINITY there.
    package static func openFilesCeiling(hard: rlim_t) -> rlim_t {
        #if os(macOS)
        return min(hard, rlim_t(OPEN_MAX))
        #else
        return hard
        #endif
    }

    /// Starts a thread that runs `body`, named `name` (what a stack dump or `top -H` shows; at
    /// most 15 bytes kept); the platforms disagree on the types of `pthread_t` and of the entry
    /// point. Returns the thread, or the pthread error number.
    /// Names the calling thread, cut to the 15 bytes Linux keeps.
    static func nameThisThread(_ name: String) {
        CSystem_name_this_thread(String(decoding: Array(name.utf8.prefix(15)), as: UTF8.self))
    }

    package static func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> Result<pthread_t, SystemCallError> {
        let named: @Sendable () -> Void = {
            LibC.nameThisThread(name)
            body()
        }
        // Retained here, released by the entry point when the thread starts.
        let box = Unmanaged.passRetained(ThreadBody(named)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { box in
            guard let box else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().body()
            return nil
        }, box)
        #else
        var made: pthread_t?
        let code = pthread_create(&made, nil, { box in
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().body()
            return nil
        }, box)
        #endif
        guard code == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return .failure(SystemCallError(call: "pthread_create", errno: code))
        }
        #if canImport(Glibc)
        return .success(thread)
        #else
        return .success(made!)
        #endif
    }
}

/// What a new thread runs; boxed to cross the C entry point.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
