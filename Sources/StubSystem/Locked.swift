// Public, not package, so that `withLock` is inlined into other modules (AtomicWord.swift says why).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// A pthread mutex guarding a value. Used instead of `Synchronization.Mutex`, which trips
/// Thread Sanitizer false positives on this platform. The mutex and the value live in memory of
/// their own, not in stored properties, so taking the lock costs no runtime exclusivity check, and
/// `withLock` is inlinable so other modules get it specialized: it is on every request's path.
public final class Locked<Value> {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        // Critical sections here are a few hundred nanoseconds: spin briefly before sleeping in
        // the kernel, which matters when two polling threads record into the journal at once.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

// @unchecked: every access to the value goes through the mutex, so sharing the box is safe exactly
// when the value itself may cross threads.
extension Locked: @unchecked Sendable where Value: Sendable {}
