import Foundation
@testable import StubCore
@testable import StubFleet
import Testing

/// The fleet's pieces that need no store: the URL, key names and the stored form of an override.
@Suite(.timeLimit(.minutes(3))) struct FleetUnitTests {
    @Test func storeURLsAreReadAndShownWithoutTheirPassword() throws {
        let plain = try StateStoreURL("redis://cache:6380/2")
        #expect(plain.host == "cache" && plain.port == 6380 && plain.database == 2 && plain.password == nil)
        #expect(plain.redacted == "redis://cache:6380/2")
        let secret = try StateStoreURL("redis://app:s%40cret@10.0.0.5")
        #expect(secret.user == "app" && secret.password == "s@cret" && secret.port == 6379)
        #expect(secret.redacted == "redis://app:***@10.0.0.5:6379")
        #expect(try StateStoreURL("redis://:pw@h").redacted == "redis://:***@h:6379")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-pw-\(UUID().uuidString)")
        try Data("from-file\n".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try StateStoreURL("redis://h", passwordFile: folder.path).password == "from-file")
        let tls = try StateStoreURL("rediss://:pw@cache.internal:6380", authorities: "/etc/ca.pem")
        #expect(tls.tls && tls.authorities == "/etc/ca.pem" && tls.redacted == "rediss://:***@cache.internal:6380")
        #expect(try StateStoreURL("valkey://h").tls == false)
        for (bad, says) in [("http://h", "redis://"), ("redis://h/x", "database number"), ("redis://", "host")] {
            #expect(throws: StoreURLError.self) { try StateStoreURL(bad) }
            do { _ = try StateStoreURL(bad) } catch { #expect(error.description.contains(says), "\(bad): \(error)") }
        }
        #expect(throws: StoreURLError.self) { try StateStoreURL("redis://h", passwordFile: "/nonexistent/pw") }
    }

    @Test func scopeKeysCannotBeConfusedAndReadBack() {
        for scope in [Scope.global, .session("g"), .session("s1:x"), .session("team/a|b"), .session("ü")] {
            #expect(FleetKeys.scope(FleetKeys.scopeKey(scope)) == scope)
        }
        #expect(FleetKeys.scopeKey(.session("g")) != FleetKeys.scopeKey(.global))
        #expect(FleetKeys.scope("s5:abc") == nil && FleetKeys.scope("x") == nil)
    }

    @Test func anOverrideReadsBackFromItsStoredForm() throws {
        var o = RouteOverride(variant: "503", delay: .uniform(min: 10, max: 20), fault: .hang, throttleBytesPerSecond: 512, sequence: ["500", "200"])
        o.hold = true
        let back = try #require(RouteOverride.stored(o.storedJSON.serializedBytes()))
        #expect(back == o)
        let lognormal = RouteOverride(delay: .lognormal(median: 120.5, sigma: 0.4, max: 900))
        #expect(RouteOverride.stored(lognormal.storedJSON.serializedBytes()) == lognormal)
        #expect(RouteOverride.stored(Array("not json".utf8)) == nil)
    }
}
