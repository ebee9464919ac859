import Foundation
@testable import StubCore
import StubSystem
import Testing

/// Session state goes away when a session is idle too long or too many sessions hold state.
@Suite struct SessionExpiryTests {
    final class FakeClock: Sendable {
        let seconds = Locked(0.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var now: Double { seconds.withLock { $0 } }
    }

    func route() throws -> Route {
        let stubs = try TemporaryStubs(["svc/r/route.json": #"{"method": "GET", "path": "/r"}"#, "svc/r/200.json": "{}", "svc/r/500.json": "{}"])
        return try #require(try stubs.catalog().routes.first)
    }

    @Test func anIdleSessionLosesItsOverridesAndTheGlobalScopeNever() throws {
        let clock = FakeClock()
        let control = StubControl(journalSize: 0, sessionTTLSeconds: 60, maxSessions: 100, clock: { clock.now })
        let r = try route()
        try control.setOverride(RouteOverride(variant: "500"), for: r, session: "a")
        try control.setOverride(RouteOverride(variant: "500"), for: r, session: nil)
        clock.advance(30)
        #expect(control.decision(forRoute: r.id, session: "a", advance: true)?.variant == "500", "used within the idle time")
        clock.advance(61)
        #expect(control.decision(forRoute: r.id, session: "a", advance: true) == nil, "idle for 61 s: gone")
        #expect(control.decision(forRoute: r.id, session: nil, advance: true)?.variant == "500")
        #expect(control.sessionCount == 0)
    }

    @Test func beyondTheCapTheLeastRecentlyUsedGoFirst() throws {
        let clock = FakeClock()
        let control = StubControl(journalSize: 0, sessionTTLSeconds: 600, maxSessions: 3, clock: { clock.now })
        let r = try route()
        for name in ["a", "b", "c"] {
            try control.setOverride(RouteOverride(variant: "500"), for: r, session: name)
            clock.advance(1)
        }
        _ = control.decision(forRoute: r.id, session: "a", advance: true)
        try control.setOverride(RouteOverride(variant: "500"), for: r, session: "d")
        #expect(control.sessionCount == 3)
        #expect(control.override(routeID: r.id, session: "b") == nil, "b was the least recently used")
        for name in ["a", "c", "d"] { #expect(control.override(routeID: r.id, session: name) != nil) }
    }

    @Test func clearingTheLastOverrideForgetsTheSession() throws {
        let control = StubControl(journalSize: 0)
        let r = try route()
        try control.setOverride(RouteOverride(variant: "500"), for: r, session: "a")
        control.clearOverride(routeID: r.id, session: "a")
        #expect(control.sessionCount == 0)
    }
}
