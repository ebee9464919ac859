import StubCore

/// A Lua script the store runs by its SHA-1 (`EVALSHA`), sent whole only when the store does not
/// have it yet (after a restart or `SCRIPT FLUSH`): a commit then sends its arguments, not the
/// script's kilobyte, each time.
struct StoreScript: Sendable {
    /// The script.
    let text: String
    /// Its SHA-1 in lower-case hex, as the store names it.
    let sha: String

    init(_ text: String) {
        self.text = text
        sha = SHA1.digest(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Runs the script with its first `keys` arguments as keys.
    func run(on connection: RedisConnection, keys: Int, _ arguments: [String]) throws(StoreError) -> RedisReply {
        let reply = try connection.command(["EVALSHA", sha, String(keys)] + arguments)
        if case .error(let message) = reply, message.hasPrefix("NOSCRIPT") {
            return try connection.command(["EVAL", text, String(keys)] + arguments)
        }
        return reply
    }
}
