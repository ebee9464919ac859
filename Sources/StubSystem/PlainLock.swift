// Public, not package, so that `withLock` is inlined into other modules (AtomicWord.swift says why).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// A pthread mutex that guards no value of its own: for a critical section over state kept
/// elsewhere (a file descriptor's order of writes, a check-then-act). A default mutex, which
/// Thread Sanitizer models exactly; `Locked<()>` allocated an empty value per lock that TSan
/// reported as racing.
public final class PlainLock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronization; it lives in its own allocation and is only
    // touched through pthread calls.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @inlinable @discardableResult
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
