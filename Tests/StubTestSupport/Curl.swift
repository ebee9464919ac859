import Foundation

/// Runs curl as a developer would at a terminal and returns its exit status and output.
package enum Curl {
    package struct Result {
        package var exitCode: Int32
        package var stdout: String
        package var stderr: String

        package init(exitCode: Int32, stdout: String, stderr: String) {
            self.exitCode = exitCode
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    package static func run(_ arguments: [String]) async throws -> Result {
        try await Subprocess.run("/usr/bin/curl", arguments)
    }
}

/// Runs a program to completion and captures its output.
package enum Subprocess {
    /// Waits for the program on a thread of its own (see `OffPool`).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Curl.Result {
        try await OffPool.run { try runBlocking(executable, arguments, environment: environment) }
    }

    package static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Curl.Result {
        let child = try Spawned(executable, arguments, environment: environment)
        let output = child.readToEnd()
        return Curl.Result(exitCode: child.waitForExit(), stdout: output.stdout, stderr: output.stderr)
    }
}
