/// Follows the shape of what a store sends, before hiredis reads it: hiredis 0.14 (Debian 12)
/// makes an array's element slots when it reads the array's header, before any element came,
/// and visits every slot when it frees the array, so a store sending `*2147483647` costs 16 GiB
/// of address space and seconds of freeing. An array is refused at its header when the elements
/// every open array still waits for could not fit in one reply of `maxReplyBytes` (an element is
/// at least 3 bytes, `+\r\n`): no real reply is refused, and the slots made stay bounded.
struct RESPScanner {
    private enum State {
        /// The next byte starts a reply or an element: its type.
        case type
        /// Inside a header line of `kind` (`*`, `$`, `+`, `-`, `:`), its number so far.
        case line(kind: UInt8, value: Int, negative: Bool)
        /// The header line's `\r` came; its `\n` is next.
        case lineEnd(kind: UInt8, value: Int)
        /// Inside a bulk string: this many bytes are left, its `\r\n` included.
        case bulk(left: Int)
    }

    /// The most elements every open array may still wait for, together.
    let maxOwed: Int
    private var state = State.type
    /// What each open array still waits for, the innermost last.
    private var owed: [Int] = []
    private var owedTotal = 0
    /// hiredis 0.14 reads arrays nested 7 deep at most.
    private static let maxDepth = 7

    init(maxReplyBytes: Int) {
        maxOwed = maxReplyBytes / 3
    }

    /// Follows `bytes`; throws at the first header no reply within the limit could have.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        var i = 0
        while i < bytes.count {
            switch state {
            case .bulk(let left):
                // A bulk string's bytes are skipped whole, not looked at.
                let taken = min(left, bytes.count - i)
                i += taken
                if taken == left { elementEnded() } else { state = .bulk(left: left - taken) }
                continue
            case .type:
                let byte = bytes[i]
                guard byte == UInt8(ascii: "*") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") else {
                    throw StoreError(description: "Protocol error: the store sent \(byte < 0x20 || byte > 0x7E ? "byte \(byte)" : "'\(Character(Unicode.Scalar(byte)))'") where a reply starts")
                }
                state = .line(kind: byte, value: 0, negative: false)
            case .line(let kind, let value, let negative):
                let byte = bytes[i]
                if byte == UInt8(ascii: "\r") {
                    state = .lineEnd(kind: kind, value: negative ? -value : value)
                } else if kind == UInt8(ascii: "*") || kind == UInt8(ascii: "$") {
                    // Only counts and lengths matter here; anything else in them hiredis refuses.
                    if byte == UInt8(ascii: "-") && value == 0 && !negative {
                        state = .line(kind: kind, value: 0, negative: true)
                    } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        state = .line(kind: kind, value: min(value * 10 + Int(byte - UInt8(ascii: "0")), Int(Int32.max) * 4), negative: negative)
                    }
                }
            case .lineEnd(let kind, let value):
                try headerEnded(kind: kind, value: value)
            }
            i += 1
        }
    }

    private mutating func headerEnded(kind: UInt8, value: Int) throws(StoreError) {
        switch kind {
        case UInt8(ascii: "*") where value > 0:
            guard owed.count < RESPScanner.maxDepth else {
                throw StoreError(description: "Protocol error: arrays nested more than \(RESPScanner.maxDepth) deep")
            }
            guard value <= maxOwed - owedTotal else {
                throw StoreError(description: "Protocol error: an array of \(value) elements, more than one reply can hold")
            }
            owed.append(value)
            owedTotal += value
            state = .type
        case UInt8(ascii: "$") where value >= 0:
            state = .bulk(left: value + 2)
        default:
            // A status, an error, an integer, a null or empty array or string: one element, whole.
            elementEnded()
        }
    }

    /// One element (or a whole reply) ended: its array waits for one less, and an array that
    /// waits for none is itself an element that ended.
    private mutating func elementEnded() {
        state = .type
        while let last = owed.indices.last {
            owed[last] -= 1
            owedTotal -= 1
            guard owed[last] == 0 else { return }
            owed.removeLast()
        }
    }
}
