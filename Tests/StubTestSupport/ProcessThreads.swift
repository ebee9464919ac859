import Foundation

/// How many threads another process runs, for tests that check the daemon takes no thread per
/// waiting request. Linux reads /proc; elsewhere it cannot be counted, and those tests say they
/// skipped (`canCount`).
package enum ProcessThreads {
    /// Whether `count(of:)` can answer on this platform.
    package static var canCount: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// The threads of process `pid`, or nil where they cannot be counted.
    package static func count(of pid: Int32) -> Int? {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return Int(status.split(separator: "\n").first { $0.hasPrefix("Threads:") }?.split(separator: "\t").last ?? "")
        #else
        return nil
        #endif
    }

    /// The names of the threads of process `pid` (`/proc/PID/task/*/comm`), or nil where they
    /// cannot be read.
    package static func names(of pid: Int32) -> [String]? {
        #if os(Linux)
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #else
        return nil
        #endif
    }
}
