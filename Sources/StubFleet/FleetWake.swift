import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes the worker thread at once when a change notice arrives, instead of at its next 10 ms
/// tick: a pipe whose read end the worker polls beside its stop descriptor.
final class FleetWake: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws(SystemCallError) {
        // Non-blocking both ways: `signal` never waits on a full pipe, `drain` never on an empty one.
        (readFD, writeFD) = try LibC.makeWakePipe()
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes the read end readable (a full pipe is already readable: the byte is not needed).
    func signal() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: EAGAIN loses nothing.
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe after the worker woke.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readFD, &bytes, bytes.count) > 0 {}
    }
}
