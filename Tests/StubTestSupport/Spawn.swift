import Foundation
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, its standard output and error on pipes. The tests
/// do not use Foundation's `Process` on Linux: with hundreds of sockets open in the test process it
/// crashed in `run()`, and `FileHandle` reads end in a `try!` that a signal's EINTR trips.
package final class Spawned: @unchecked Sendable {
    // @unchecked: `pid` and the descriptors are set once in init; each pipe is read by one caller.
    package let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var status: Int32?

    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard Spawned.openPipe(&out), Spawned.openPipe(&err) else { throw Spawned.failure("pipe2") }
        let environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let spawned = LibC.spawn(executable, arguments: [executable] + arguments, environment: environment, stdout: out[1], stderr: err[1])
        close(out[1])
        close(err[1])
        guard case .success(let child) = spawned else {
            close(out[0])
            close(err[0])
            throw Spawned.failure("\(spawned)")
        }
        pid = child
        stdoutFD = out[0]
        stderrFD = err[0]
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = waitForExit() }
        close(stdoutFD)
        close(stderrFD)
    }

    /// Reads standard output up to and including its first newline (or its end).
    package func readLine() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Spawned.readRetrying(stdoutFD, &byte, 1) == 1 {
            line.append(byte)
            if byte == UInt8(ascii: "\n") { break }
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Reads both pipes to their ends at once (so neither fills while the other is read).
    package func readToEnd() -> (stdout: String, stderr: String) {
        var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)]
        var collected: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = Spawned.readRetrying(fds[i].fd, &buffer, buffer.count)
                if n > 0 { collected[i] += buffer[0..<n] } else { fds[i].fd = -1 }
            }
        }
        return (String(decoding: collected[0], as: UTF8.self), String(decoding: collected[1], as: UTF8.self))
    }

    /// Waits for the child to end: its exit status, or the signal that ended it.
    @discardableResult
    package func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
        status = code
        return code
    }

    /// True until the child has been waited for.
    package var isRunning: Bool { status == nil && kill(pid, 0) == 0 }

    /// A pipe whose ends close on exec (the child gets only the copies made by `adddup2`; a
    /// child spawned by another thread in between has them closed by `closeOthers`).
    private static func openPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func readRetrying(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            let n = read(fd, buffer, count)
            if n >= 0 || errno != EINTR { return n }
        }
    }

    private static func failure(_ what: String) -> Error {
        CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "could not start a process: \(what)"])
    }
}
