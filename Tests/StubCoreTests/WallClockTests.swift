import Foundation
@testable import StubCore
import StubSystem
import Testing

/// Requests are dated from the monotonic time they arrived, through a distance between the clocks
/// read at most every 100 ms: the dates must agree with the wall clock.
@Suite struct WallClockTests {
    @Test func aMonotonicTimeIsDatedAsTheWallClockSaysItWas() {
        for _ in 0..<3 {
            let now = MonotonicClock.now()
            let wall = Date()
            #expect(abs(WallClock.date(atMonotonic: now).timeIntervalSince(wall)) < 0.05)
            let earlier = now - 2_000_000_000
            #expect(abs(WallClock.date(atMonotonic: earlier).timeIntervalSince(wall.addingTimeInterval(-2))) < 0.05)
            usleep(150_000)
        }
    }
}
