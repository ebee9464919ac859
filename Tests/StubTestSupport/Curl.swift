import Foundation

/// Runs curl as a developer would at a terminal and returns its exit status and output.
enum Curl {
    struct Result {
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) async throws -> Result {
        try await Subprocess.run("/usr/bin/curl", arguments)
    }
}

/// Runs a program to completion and captures its output.
enum Subprocess {
    /// Waits for the program on a thread of its own (see `OffPool`).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Curl.Result {
        try await OffPool.run { try runBlocking(executable, arguments, environment: environment) }
    }

    static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Curl.Result {
        let child = try Spawned(executable, arguments, environment: environment)
        let output = child.readToEnd()
        return Curl.Result(exitCode: child.waitForExit(), stdout: output.stdout, stderr: output.stderr)
    }
}
