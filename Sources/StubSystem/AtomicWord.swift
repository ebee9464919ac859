// Public, not package: Swift 6.3 inlines an `@inlinable` declaration into other modules only
// when it is public (an `@inlinable package` one stays a call, unspecialized). Made public with
// Locked and PlainLock: 1,258 fewer instructions per request (2.8%, bench/instructions.py) and
// server CPU 0.972x small, 0.977x table (bench/paired.py, 8 rounds).
import CSystem

/// A value of at most 64 bits that any thread may read and write at once: a flag, a counter, a
/// deadline. It stands where Swift's `Synchronization.Atomic` would, which needs macOS 15; this
/// one runs on macOS 14 too, with the same calls (`load`, `store`, `exchange`, `add`,
/// `compareExchange`). The word lives in memory of its own, so its address never moves.
public struct AtomicWord<Value: AtomicWordValue>: ~Copyable {
    @usableFromInline let word: UnsafeMutablePointer<UInt64>

    /// Holds `value`.
    @inlinable public init(_ value: Value) {
        word = .allocate(capacity: 1)
        word.initialize(to: value.wordBits)
    }

    deinit { word.deallocate() }

    /// The value now.
    @inlinable public func load(ordering: AtomicWordOrdering) -> Value {
        Value(wordBits: CSystem_atomic_load(word, ordering.rawValue))
    }

    /// Replaces the value.
    @inlinable public func store(_ value: Value, ordering: AtomicWordOrdering) {
        CSystem_atomic_store(word, value.wordBits, ordering.rawValue)
    }

    /// Replaces the value and returns the one it had.
    @inlinable public func exchange(_ value: Value, ordering: AtomicWordOrdering) -> Value {
        Value(wordBits: CSystem_atomic_exchange(word, value.wordBits, ordering.rawValue))
    }

    /// Writes `desired` if the value is `expected`; `original` is the value found either way.
    @inlinable public func compareExchange(expected: Value, desired: Value, ordering: AtomicWordOrdering) -> (exchanged: Bool, original: Value) {
        var found = expected.wordBits
        let exchanged = CSystem_atomic_compare_exchange(word, &found, desired.wordBits, ordering.rawValue)
        return (exchanged, Value(wordBits: found))
    }
}

extension AtomicWord where Value: FixedWidthInteger {
    /// Adds `amount` (wrapping around at the type's bounds) and returns both values.
    @inlinable @discardableResult
    public func add(_ amount: Value, ordering: AtomicWordOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(wordBits: CSystem_atomic_fetch_add(word, amount.wordBits, ordering.rawValue))
        return (old, old &+ amount)
    }

    /// Subtracts `amount` (wrapping) and returns both values.
    @inlinable @discardableResult
    public func subtract(_ amount: Value, ordering: AtomicWordOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(wordBits: CSystem_atomic_fetch_add(word, (0 &- amount).wordBits, ordering.rawValue))
        return (old, old &- amount)
    }

    /// Replaces the value with `next(value)`, retrying when another thread changed it meanwhile.
    @inlinable public func update(ordering: AtomicWordOrdering, _ next: (Value) -> Value) {
        var current = load(ordering: .relaxed)
        while true {
            let (exchanged, original) = compareExchange(expected: current, desired: next(current), ordering: ordering)
            if exchanged { return }
            current = original
        }
    }
}

// @unchecked: every access to the word is one atomic operation.
extension AtomicWord: @unchecked Sendable {}

/// The memory orders of `AtomicWord`, named as Swift's own atomics name them; the raw values are
/// the C compilers' `__ATOMIC_*` numbers.
public enum AtomicWordOrdering: Int32, Sendable {
    case relaxed = 0
    case acquiring = 2
    case releasing = 3
    case acquiringAndReleasing = 4
    case sequentiallyConsistent = 5
}

/// A type `AtomicWord` can hold: one that fits in 64 bits and converts to and from them.
public protocol AtomicWordValue {
    /// The value as the word's bits.
    var wordBits: UInt64 { get }
    /// The value the word's bits hold.
    init(wordBits: UInt64)
}

extension Bool: AtomicWordValue {
    @inlinable public var wordBits: UInt64 { self ? 1 : 0 }
    @inlinable public init(wordBits: UInt64) { self = wordBits != 0 }
}

extension Int: AtomicWordValue {
    @inlinable public var wordBits: UInt64 { UInt64(bitPattern: Int64(self)) }
    @inlinable public init(wordBits: UInt64) { self = Int(Int64(bitPattern: wordBits)) }
}

extension Int64: AtomicWordValue {
    @inlinable public var wordBits: UInt64 { UInt64(bitPattern: self) }
    @inlinable public init(wordBits: UInt64) { self = Int64(bitPattern: wordBits) }
}

extension UInt64: AtomicWordValue {
    @inlinable public var wordBits: UInt64 { self }
    @inlinable public init(wordBits: UInt64) { self = wordBits }
}

extension UInt8: AtomicWordValue {
    @inlinable public var wordBits: UInt64 { UInt64(self) }
    @inlinable public init(wordBits: UInt64) { self = UInt8(truncatingIfNeeded: wordBits) }
}
