import Foundation
import Testing

extension RequiredTool {
    /// What becomes of a test whose tools were looked for.
    package enum Verdict: Equatable, Sendable {
        /// Every tool is here: the test runs.
        case run
        /// A developer's machine lacks one: the test says it skipped, and why.
        case skip
        /// A CI run lacks one: the test fails with this message, its body not run.
        case fail(String)
    }

    /// The decision, apart from the probing: with every tool here the test runs; without one it
    /// skips, except under CI, where a skip would pass for a success and the test fails instead.
    package static func verdict(missing: [RequiredTool], ci: Bool) -> Verdict {
        guard !missing.isEmpty else { return .run }
        guard ci, missing.contains(where: \.failsUnderCI) else { return .skip }
        let named = missing.filter(\.failsUnderCI).map { "\($0.rawValue) is missing under CI=true, where a test may not skip: \($0.inCI)" }
        return .fail(named.joined(separator: "; "))
    }

    /// Whether this is a CI run: `CI=true`, as CI services set it and `.ci/run` exports it.
    package static func isCI(_ environment: [String: String]) -> Bool {
        environment["CI"]?.lowercased() == "true"
    }

    /// Which of `tools` are missing. `STUBD_PRETEND_MISSING` (names separated by commas, e.g.
    /// `redis-server,haproxy`) counts tools as missing although they are here: it shows what a
    /// machine without them does, in CI and out.
    package static func missing(_ tools: [RequiredTool], environment: [String: String],
                                isAvailable: (RequiredTool) -> Bool = { $0.isAvailable }) -> [RequiredTool] {
        let pretended = Set((environment["STUBD_PRETEND_MISSING"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        })
        return tools.filter { pretended.contains($0.rawValue) || !isAvailable($0) }
    }

    /// The reason a skipped test gives: what it needs and how to get it.
    package static func skipReason(_ tools: [RequiredTool]) -> String {
        let names = tools.map(\.rawValue)
        let missing = names.count == 1 ? "\(names[0]) is" : names.dropLast().joined(separator: ", ") + " or \(names.last!) is"
        return "\(missing) missing: " + tools.map(\.install).joined(separator: "; ") + " (under CI=true this fails the run)"
    }
}

/// The failure of a CI run that lacks a tool, recorded as the test's issue.
package struct MissingUnderCI: Error, CustomStringConvertible {
    package let description: String
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where `tools` are all here. Without one, a developer's machine
    /// skips it with the reason and the install command; a run with `CI=true` fails it, naming the
    /// tool and how `.ci/run` installs it, and does not run its body.
    package static func requires(_ tools: RequiredTool..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        requires(tools, sourceLocation: sourceLocation)
    }

    /// `requires(_:)` with the environment and the probe given (by the tests of this trait).
    package static func requires(_ tools: [RequiredTool], environment: [String: String]? = nil,
                                 isAvailable: @escaping @Sendable (RequiredTool) -> Bool = { $0.isAvailable },
                                 sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        .enabled(Comment(rawValue: RequiredTool.skipReason(tools)), sourceLocation: sourceLocation) {
            let environment = environment ?? ProcessInfo.processInfo.environment
            let missing = RequiredTool.missing(tools, environment: environment, isAvailable: isAvailable)
            switch RequiredTool.verdict(missing: missing, ci: RequiredTool.isCI(environment)) {
            case .run: return true
            case .skip: return false
            // A condition that throws makes Swift Testing record the error as the test's issue and
            // not run the body: the test (or every test of the suite) fails with this message.
            case .fail(let message): throw MissingUnderCI(description: message)
            }
        }
    }
}
