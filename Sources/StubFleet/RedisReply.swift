/// One reply of Valkey or Redis, copied out of hiredis's reply tree.
enum RedisReply: Sendable, Equatable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    case error(String)

    /// The reply as text (a bulk string or a status).
    var text: String? {
        switch self {
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let s): return s
        default: return nil
        }
    }

    /// The reply as a whole number (an integer, or a bulk string holding one).
    var int: Int? {
        switch self {
        case .integer(let n): return n
        case .string: return text.flatMap { Int($0) }
        default: return nil
        }
    }

    /// The elements of an array reply (none for anything else).
    var elements: [RedisReply] {
        if case .array(let items) = self { return items }
        return []
    }
}

/// Why the store did not answer: it could not be reached, it closed the connection, it took too
/// long, or it refused a command.
struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What happened, as the health report and the log say it.
    let description: String
}
