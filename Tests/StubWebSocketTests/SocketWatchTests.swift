@testable import StubWebSocket
import StubSystem
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hub's wait on its sockets keeps hearing from every socket it was asked to watch.
@Suite struct SocketWatchTests {
    /// epoll refuses some descriptors (a regular file here; past the user's watch limit, a
    /// socket): the watch goes on with poll(2) instead of never reporting it.
    @Test func aDescriptorEpollRefusesIsStillHeardFrom() throws {
        let path = "/tmp/stubd-socketwatch-\(getpid())"
        let file = try SystemCall.run("open") { open(path, O_CREAT | O_RDWR, 0o600) }
        defer {
            close(file)
            unlink(path)
        }
        var ends: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&ends) }
        defer { ends.forEach { close($0) } }
        var byte: UInt8 = 1
        try SystemCall.run("write") { write(ends[1], &byte, 1) }
        let watch = SocketWatch(useEpoll: true)
        watch.watch(ends[0], token: 1, read: true, write: false)
        watch.watch(file, token: 2, read: true, write: false)
        let ready = watch.wait(timeoutMs: 1000)
        #expect(Set(ready.filter(\.readable).map(\.token)) == [1, 2])
    }
}
