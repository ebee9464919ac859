/// The parameters of an `rst-stream` fault: the RST_STREAM error code, and how many body bytes
/// go out before it (nil: the stream is reset before its headers). Written as
/// `rst-stream`, `rst-stream=CODE`, `rst-stream-after=N` or `rst-stream-after=N:CODE`, in a
/// variant's `fault` and in `X-Stub-Fault` / `__fault` alike; CODE is an RFC 9113 §7 name in lower
/// case with dashes (`refused-stream`, `cancel`, `enhance-your-calm`) or its number.
public struct StreamReset: Sendable, Equatable {
    /// The error code RST_STREAM carries.
    public var code: UInt32
    /// Body bytes sent before the reset; nil: none, not even the headers.
    public var afterBytes: Int?

    /// CANCEL before the headers, unless told otherwise.
    public init(code: UInt32 = StreamReset.cancel, afterBytes: Int? = nil) {
        self.code = code
        self.afterBytes = afterBytes
    }

    /// CANCEL (0x8).
    public static let cancel: UInt32 = 8

    /// The error codes by name (RFC 9113 §7), in code order.
    public static let codeNames = ["no-error", "protocol-error", "internal-error", "flow-control-error", "settings-timeout", "stream-closed",
                                   "frame-size-error", "refused-stream", "cancel", "compression-error", "connect-error", "enhance-your-calm",
                                   "inadequate-security", "http-1-1-required"]

    /// What the grammar accepts, for error messages.
    public static let expectation = "rst-stream, rst-stream=CODE, rst-stream-after=N or rst-stream-after=N:CODE, CODE one of \(codeNames.joined(separator: ", ")) or a number"

    /// Reads a fault's text: `.none` when it is not an `rst-stream` form at all, `.invalid` when
    /// it is one with a bad code or count.
    public static func parse(_ text: String) -> Parsed {
        if text == "rst-stream" { return .reset(StreamReset()) }
        if text.hasPrefix("rst-stream=") {
            guard let code = code(text.dropFirst("rst-stream=".count)) else { return .invalid }
            return .reset(StreamReset(code: code))
        }
        guard text.hasPrefix("rst-stream-after=") else { return .none }
        let parts = text.dropFirst("rst-stream-after=".count).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let count = Int(parts[0]), (0...(1 << 30)).contains(count) else { return .invalid }
        guard parts.count == 2 else { return .reset(StreamReset(afterBytes: count)) }
        guard let code = code(parts[1]) else { return .invalid }
        return .reset(StreamReset(code: code, afterBytes: count))
    }

    /// What `parse` found.
    public enum Parsed: Equatable {
        /// An `rst-stream` form, read.
        case reset(StreamReset)
        /// An `rst-stream` form with a bad code or count.
        case invalid
        /// Not an `rst-stream` form: another fault's name, or none.
        case none
    }

    /// A code by name or number (up to 2^32 - 1: unknown codes are allowed, RFC 9113 §7).
    private static func code(_ text: Substring) -> UInt32? {
        if let index = codeNames.firstIndex(of: String(text)) { return UInt32(index) }
        return UInt32(text)
    }
}
