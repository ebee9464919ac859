// Public only so the hints can be inlined into their callers: a call costs more than the one
// instruction it wraps, on a path that asks for several lines per request.
public import CSystem

/// Cache hints for memory the caller will touch soon and has not touched for long (the route
/// tree's slots in a table of thousands, a journal entry about to be dropped): asking for
/// several places at once lets the waits for memory overlap each other instead of following one
/// another. The one place pointers are made for that; the core hands objects, identities of
/// objects and arrays. Each use names its measured gain (bench/README.md, "Tricks").
public enum Prefetch {
    /// Asks for the first `lines` cache lines of the object `id` names, which the caller does not
    /// hold (an identity keeps nothing alive; a hint at freed memory is harmless): the first to
    /// be written (a release writes the count there), the rest to be read.
    @inlinable @inline(__always)
    public static func object(at id: ObjectIdentifier, lines: Int) {
        guard let start = UnsafeRawPointer(bitPattern: UInt(bitPattern: id)) else { return }
        CSystem_prefetch_for_writing(start)
        for line in 1..<max(lines, 1) { CSystem_prefetch_for_reading(start + 64 * line) }
    }

    /// Asks for every line of `array[index]` (an element may straddle two), to be read, or to be
    /// written when `forWriting`. A hint: an index out of bounds asks for nothing.
    @inlinable @inline(__always)
    public static func element<Element>(_ index: Int, of array: [Element], forWriting: Bool = false) {
        array.withUnsafeBufferPointer { elements in
            guard index >= 0, index < elements.count, let base = elements.baseAddress else { return }
            lines(of: UnsafeRawPointer(base + index), bytes: MemoryLayout<Element>.stride, forWriting: forWriting)
        }
    }

    /// Where an array's elements lay when it was made, as numbers (it keeps nothing alive): for
    /// memory to be asked for later, when the array itself is not at hand without a wait.
    public struct Span: Sendable {
        @usableFromInline let start: UInt
        @usableFromInline let bytes: Int

        /// The span of `array`'s elements (empty for an empty array).
        @inlinable
        public init<Element>(elementsOf array: [Element]) {
            (start, bytes) = array.withUnsafeBufferPointer { elements in
                (elements.baseAddress.map { UInt(bitPattern: $0) } ?? 0, elements.count * MemoryLayout<Element>.stride)
            }
        }
    }

    /// Asks for every line of `span`, to be written (memory about to be freed and handed to the
    /// next allocation of its size). A hint: a span of freed memory is harmless.
    @inlinable @inline(__always)
    public static func span(_ span: Span) {
        guard span.bytes > 0, let start = UnsafeRawPointer(bitPattern: span.start) else { return }
        lines(of: start, bytes: span.bytes, forWriting: true)
    }

    /// Asks for every cache line `bytes` bytes from `start` touch: one per 64 bytes, and the last
    /// byte's, which lies on a line of its own when `start` is not at a line's start.
    @inlinable @inline(__always)
    static func lines(of start: UnsafeRawPointer, bytes: Int, forWriting: Bool) {
        if forWriting {
            for offset in stride(from: 0, to: bytes, by: 64) { CSystem_prefetch_for_writing(start + offset) }
            CSystem_prefetch_for_writing(start + (bytes - 1))
        } else {
            for offset in stride(from: 0, to: bytes, by: 64) { CSystem_prefetch_for_reading(start + offset) }
            CSystem_prefetch_for_reading(start + (bytes - 1))
        }
    }

    /// Asks for what freeing a value will write: every line of `span` (memory handed to the next
    /// allocation of its size), the first `lines` of the object `first` names and the first line
    /// of `second` and `third` (where a release writes their counts).
    @inlinable @inline(__always)
    public static func release(_ span: Span?, _ first: ObjectIdentifier?, lines: Int, _ second: ObjectIdentifier?, _ third: ObjectIdentifier?) {
        if let span { Prefetch.span(span) }
        if let first { object(at: first, lines: lines) }
        if let second { object(at: second, lines: 1) }
        if let third { object(at: third, lines: 1) }
    }
}
