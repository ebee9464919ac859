import Foundation
import StubCore
@testable import StubServer
import StubTransport
import Testing
import StubSystem

/// `SuspendedConnections` without libmicrohttpd: a fake event loop stands in for MHD. Like MHD, it
/// runs a resumed connection again on its own thread (reporting `resumed`), never inside `resume`.
final class FakeEventLoop: @unchecked Sendable {
    // @unchecked: every mutable field is behind a `Locked`.
    let marks = Locked<[Int: SuspensionMark]>([:])
    let resumed = Locked<[Int: Int]>([:])
    let queue = Locked<[Int]>([])
    /// Handles whose resume reported the client gone.
    let gone = Locked<Set<Int>>([])
    let running = Locked(true)
    private var thread: pthread_t?
    var owner: SuspendedConnections!

    init(useEpoll: Bool = true) throws {
        owner = try SuspendedConnections(suspend: { _ in }, resume: { [unowned self] handle in
            // Resume only flags the connection, as MHD does; the loop thread runs it later.
            queue.withLock { $0.append(Int(handle)) }
        }, useEpoll: useEpoll)
        thread = try BackgroundThread.start(name: "test-resumer") { [self] in
            while running.withLock({ $0 }) || !queue.withLock({ $0.isEmpty }) {
                let due = queue.withLock { q -> [Int] in defer { q.removeAll() }; return q }
                for handle in due {
                    let left = marks.withLock { owner.resumed(&$0[handle, default: SuspensionMark()]) }
                    if left { gone.withLock { _ = $0.insert(handle) } }
                    resumed.withLock { $0[handle, default: 0] += 1 }
                }
                if due.isEmpty { usleep(200) }
            }
        }
    }

    /// Suspends `handle` until `deadline`, as the access handler does; false when refused.
    func suspend(_ handle: Int, fd: Int32? = nil, until deadline: UInt64) -> Bool {
        marks.withLock { marks in
            var mark = SuspensionMark()
            let ticket = owner.suspend(UInt(handle), fd: fd, mark: &mark, until: deadline)
            marks[handle] = mark
            return ticket != nil
        }
    }

    func stop() {
        running.withLock { $0 = false }
        if let thread { pthread_join(thread, nil) }
        thread = nil
        owner.shutdown()
    }
}

@Suite(.timeLimit(.minutes(3))) struct SuspendedConnectionsTests {
    static func ms(_ n: UInt64) -> UInt64 { MonotonicClock.now() + n * 1_000_000 }

    @Test func resumesEachConnectionOnceWhenItsDeadlineIsUp() throws {
        let loop = try FakeEventLoop()
        defer { loop.stop() }
        for handle in 0..<200 { #expect(loop.suspend(handle, until: Self.ms(UInt64(handle % 20)))) }
        let deadline = Self.ms(5000)
        while loop.owner.count > 0 && MonotonicClock.now() < deadline { usleep(1000) }
        #expect(loop.owner.count == 0)
        #expect(loop.resumed.withLock { $0 }.values.allSatisfy { $0 == 1 })
        #expect(loop.resumed.withLock { $0.count } == 200)
    }

    @Test func stopWhileThousandsAreSuspendedResumesThemAllAndRefusesNewOnes() throws {
        let loop = try FakeEventLoop()
        defer { loop.stop() }
        for handle in 0..<5000 { #expect(loop.suspend(handle, until: Self.ms(3_600_000))) }
        #expect(loop.owner.count == 5000)
        #expect(loop.owner.drain(timeoutMs: 5000))
        #expect(loop.owner.count == 0)
        #expect(loop.resumed.withLock { $0.count } == 5000)
        #expect(loop.resumed.withLock { $0 }.values.allSatisfy { $0 == 1 })
        #expect(loop.owner.isStopping)
        #expect(!loop.suspend(9999, until: Self.ms(1)))
        #expect(loop.owner.count == 0)
    }

    @Test func resumesRacingWithStopLeaveNothingSuspended() async throws {
        let loop = try FakeEventLoop()
        defer { loop.stop() }
        let accepted = Locked(0)
        // Four threads keep suspending while the drain runs: deadlines that fall due at once race
        // the timer against the drain, hour-long ones are resumed by the drain alone.
        let threads = try (0..<4).map { worker in
            try BackgroundThread.start(name: "test-thread") {
                for i in 0..<2000 {
                    if loop.suspend(worker * 10_000 + i, until: Self.ms(i % 3 == 2 ? 3_600_000 : UInt64(i % 3))) { accepted.withLock { $0 += 1 } }
                }
            }
        }
        // The drain starts once suspensions are under way (seen, not slept for).
        let started = Self.ms(5000)
        while accepted.withLock({ $0 }) == 0 && MonotonicClock.now() < started { usleep(100) }
        #expect(loop.owner.drain(timeoutMs: 5000))
        for thread in threads { pthread_join(thread, nil) }
        // Suspends that lost the race were refused; every accepted one was resumed exactly once.
        let deadline = Self.ms(5000)
        while loop.resumed.withLock({ $0.count }) < accepted.withLock({ $0 }) && MonotonicClock.now() < deadline { usleep(1000) }
        #expect(loop.owner.count == 0)
        #expect(loop.resumed.withLock { $0.count } == accepted.withLock { $0 })
        #expect(loop.resumed.withLock { $0 }.values.allSatisfy { $0 == 1 })
    }

    @Test func resumeEarlyWakesAWaitingConnectionOnce() throws {
        let loop = try FakeEventLoop()
        defer { loop.stop() }
        var mark = SuspensionMark()
        let ticket = try #require(loop.owner.suspend(UInt(7), fd: nil, mark: &mark, until: .max))
        loop.marks.withLock { $0[7] = mark }
        #expect(loop.owner.resumeEarly(ticket))
        #expect(!loop.owner.resumeEarly(ticket))
        let deadline = Self.ms(2000)
        while loop.owner.count > 0 && MonotonicClock.now() < deadline { usleep(1000) }
        #expect(loop.owner.count == 0)
        #expect(loop.resumed.withLock { $0[7] } == 1)
    }

    @Test func aResumeOrEndWithoutASuspendChangesNothing() throws {
        let loop = try FakeEventLoop()
        defer { loop.stop() }
        var mark = SuspensionMark()
        #expect(!loop.owner.resumed(&mark))
        loop.owner.ended(&mark)
        #expect(loop.owner.count == 0)
        #expect(!mark.isSuspended)
    }

    /// A client that closes its socket while suspended is woken at once and reported gone, on
    /// both watchers; one whose peer sends bytes (a pipelined request) stays suspended.
    @Test(arguments: [true, false])
    func aClientThatLeavesWhileSuspendedIsWokenAndReportedGone(useEpoll: Bool) throws {
        let loop = try FakeEventLoop(useEpoll: useEpoll)
        defer { loop.stop() }
        var leaving: [Int32] = [-1, -1], staying: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, LibC.streamSocket, 0, &leaving) == 0 && socketpair(AF_UNIX, LibC.streamSocket, 0, &staying) == 0)
        defer { for fd in [leaving[0], staying[0], staying[1]] { close(fd) } }
        #expect(loop.suspend(1, fd: leaving[0], until: Self.ms(60_000)))
        #expect(loop.suspend(2, fd: staying[0], until: Self.ms(60_000)))
        _ = "GET / HTTP/1.1\r\n".withCString { send(staying[1], $0, 16, 0) }
        close(leaving[1])
        let deadline = Self.ms(3000)
        while loop.resumed.withLock({ $0[1] }) == nil && MonotonicClock.now() < deadline { usleep(1000) }
        #expect(loop.resumed.withLock { $0[1] } == 1)
        #expect(loop.gone.withLock { $0 } == [1])
        usleep(300_000)
        #expect(loop.resumed.withLock { $0[2] } == nil, "a peer that sent bytes is not gone")
        #expect(loop.owner.count == 1)
    }
}
