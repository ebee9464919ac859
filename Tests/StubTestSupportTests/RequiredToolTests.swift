import StubTestSupport
import Testing

/// `.requires(...)`: a missing tool skips a test on a developer's machine, with the reason, and
/// fails it under CI=true, so that a failed install cannot pass for a green run.
struct RequiredToolTests {
    @Test func everyToolHereRunsInAndOutOfCI() {
        #expect(RequiredTool.verdict(missing: [], ci: false) == .run)
        #expect(RequiredTool.verdict(missing: [], ci: true) == .run)
    }

    @Test func aMissingToolSkipsOutOfCI() {
        #expect(RequiredTool.verdict(missing: [.redisServer], ci: false) == .skip)
    }

    @Test func aMissingToolFailsUnderCINamingItAndHowCIInstallsIt() throws {
        guard case .fail(let message) = RequiredTool.verdict(missing: [.redisServer, .haproxy], ci: true) else {
            Issue.record("a missing tool under CI=true did not fail")
            return
        }
        #expect(message.contains("redis-server is missing under CI=true"), "\(message)")
        #expect(message.contains(".ci/run installs it: apt-get install redis-server"), "\(message)")
        #expect(message.contains("haproxy is missing under CI=true") && message.contains("apt-get install haproxy"), "\(message)")
    }

    @Test(arguments: [(["CI": "true"], true), (["CI": "True"], true), (["CI": "false"], false), ([:], false), (["CI": ""], false)])
    func aCIRunIsOneWithCIEqualToTrue(environment: [String: String], ci: Bool) {
        #expect(RequiredTool.isCI(environment) == ci)
    }

    @Test func pretendingAToolIsMissingCountsItMissing() {
        let here: (RequiredTool) -> Bool = { _ in true }
        #expect(RequiredTool.missing([.redisServer, .haproxy], environment: [:], isAvailable: here).isEmpty)
        let pretended = RequiredTool.missing([.redisServer, .haproxy, .gql], environment: ["STUBD_PRETEND_MISSING": "gql, redis-server"], isAvailable: here)
        #expect(pretended == [.redisServer, .gql])
        #expect(RequiredTool.missing([.wsproto], environment: [:], isAvailable: { $0 != .wsproto }) == [.wsproto])
    }

    /// The trait itself, as Swift Testing evaluates it before a test: true runs the body, false
    /// skips with the comment, an error is recorded as the test's issue and the body not run.
    @Test func theTraitRunsSkipsOrFails() async throws {
        let here: @Sendable (RequiredTool) -> Bool = { _ in true }
        let gone: @Sendable (RequiredTool) -> Bool = { $0 != .haproxy }
        #expect(try await ConditionTrait.requires([.haproxy], environment: ["CI": "true"], isAvailable: here).evaluate())
        #expect(try await !ConditionTrait.requires([.haproxy], environment: [:], isAvailable: gone).evaluate())
        #expect(try await !ConditionTrait.requires([.haproxy], environment: ["STUBD_PRETEND_MISSING": "haproxy"], isAvailable: here).evaluate())
        await #expect(throws: MissingUnderCI.self) {
            try await ConditionTrait.requires([.haproxy], environment: ["CI": "true"], isAvailable: gone).evaluate()
        }
        do {
            _ = try await ConditionTrait.requires([.redisServer], environment: ["CI": "true", "STUBD_PRETEND_MISSING": "redis-server"],
                                                  isAvailable: here).evaluate()
            Issue.record("a tool pretended missing under CI=true did not fail")
        } catch let error as MissingUnderCI {
            #expect(error.description.contains("redis-server is missing under CI=true"), "\(error)")
        }
    }

    @Test func theSkipReasonNamesEachToolAndItsInstall() {
        let trait = ConditionTrait.requires(.selenium, .chromedriver)
        let comment = trait.comments.map(\.rawValue).joined()
        #expect(comment.hasPrefix("selenium or chromedriver is missing: "), "\(comment)")
        #expect(comment.contains("pip install 'selenium") && comment.contains("apt-get install chromium chromium-driver"), "\(comment)")
        for tool in RequiredTool.allCases {
            #expect(RequiredTool.skipReason([tool]).hasPrefix("\(tool.rawValue) is missing: \(tool.install)"))
        }
    }
}
