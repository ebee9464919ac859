import Foundation

/// How many threads another process runs, for tests that check the daemon takes no thread per
/// waiting request. Linux reads /proc; elsewhere it cannot be counted, and those tests say they
/// skipped (`canCount`).
enum ProcessThreads {
    /// Whether `count(of:)` can answer on this platform.
    static var canCount: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// The threads of process `pid`, or nil where they cannot be counted.
    static func count(of pid: Int32) -> Int? {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return Int(status.split(separator: "\n").first { $0.hasPrefix("Threads:") }?.split(separator: "\t").last ?? "")
        #else
        return nil
        #endif
    }
}
