import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `stubd serve` process started for one test; reads the bound URL from its first line.
package final class RunningDaemon: @unchecked Sendable {
    // @unchecked: set up in init; `terminate` is called once, by the test that made it.
    package let child: Spawned
    package private(set) var baseURL = ""
    package private(set) var port = 0
    private var firstLine = ""

    package init(arguments: [String], environment: [String: String]? = nil) throws {
        child = try Spawned(Repository.stubdBinary, arguments, environment: environment)
        firstLine = child.readLine()
        guard let range = firstLine.range(of: "http://") else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "stubd did not start: \(firstLine)"])
        }
        baseURL = String(firstLine[range.lowerBound...].prefix { !$0.isWhitespace })
        port = Int(baseURL.split(separator: ":").last ?? "") ?? 0
    }

    /// The daemon's process id.
    package var pid: pid_t { child.pid }

    /// The first line stubd printed (where it serves).
    package var servingLine: String { firstLine }

    /// Standard error, read by `terminate`.
    package private(set) var standardError = ""

    /// Sends `signal`, waits for exit, returns the exit status and the rest of standard output.
    package func terminate(signal: Int32) -> (status: Int32, stdout: String) {
        kill(child.pid, signal)
        let rest = child.readToEnd()
        standardError = rest.stderr
        return (child.waitForExit(), firstLine + rest.stdout)
    }
}
