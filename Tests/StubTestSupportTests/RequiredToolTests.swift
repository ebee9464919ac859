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

    /// The command a tool's messages give is the one `.ci/run` runs (through
    /// scripts/ci-install.sh, which the GitHub Linux job runs too), so that the two cannot drift.
    @Test func ciRunInstallsEveryToolAsItsMessageSays() throws {
        let run = try String(contentsOf: Repository.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let installer = try String(contentsOf: Repository.root.appendingPathComponent("scripts/ci-install.sh"), encoding: .utf8)
        #expect(run.contains("\nexport CI=true\n"))
        #expect(run.split(separator: "\n").contains("scripts/ci-install.sh"), ".ci/run does not run scripts/ci-install.sh")
        let script = run + "\n" + installer
        let installs = script.split(separator: "\n").filter { $0.hasPrefix("install ") }
        let quiet = script.split(separator: "\n").filter { $0.contains("|| echo") }
        #expect(quiet.isEmpty, "a command of .ci/run or scripts/ci-install.sh that may fail quietly: \(quiet)")
        for tool in RequiredTool.allCases where tool != .schemaTestSuite {
            let command = tool.install.split(separator: "(").first!.trimmingCharacters(in: .whitespaces)
            if command.hasPrefix("apt-get install ") {
                let packages = command.dropFirst("apt-get install ".count).split(separator: " ")
                #expect(installs.contains { line in line.contains("apt-get install") && packages.allSatisfy { line.split(separator: " ").contains($0) } },
                        "\(tool.rawValue): no line of .ci/run runs \(command)")
            } else {
                let spec = try #require(command.split(separator: "'").dropFirst().first, "\(tool.rawValue): \(command)")
                #expect(installs.contains { $0.contains("pip") && $0.contains("'\(spec)'") }, "\(tool.rawValue): .ci/run does not install '\(spec)'")
            }
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
