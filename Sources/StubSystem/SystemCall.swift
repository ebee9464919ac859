#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// A system call that failed: its name and errno, for messages people read.
package struct SystemCallError: Error, CustomStringConvertible {
    /// The call, as the message names it (`bind 127.0.0.1:8080`, `pthread_create`).
    package let call: String
    /// The error number.
    package let errno: Int32

    package var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }

    /// An error of `call` with `errno`, for a failure found without a system call's result.
    package init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
}

/// The one way system calls are made in stubd (core, server and CLI): every result is checked, EINTR is retried, and a
/// failure throws an error that names the call. A result ignored on purpose says why on the line before it. Left
/// unchecked without a word, as everywhere: close(2), whose failure leaves nothing to do (the descriptor is released
/// even on EINTR on Linux, and closing it again could close one another thread just opened); locks, condition
/// variables and joins of objects the caller made and owns, which fail only when misused; clock_gettime of a clock
/// every supported system has.
package enum SystemCall {
    /// Runs a call that returns -1 and sets errno on failure.
    @discardableResult
    package static func run<Result: BinaryInteger>(_ name: @autoclosure () -> String, _ call: () -> Result) throws(SystemCallError) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: name(), errno: code) }
        }
    }

    /// Runs a pthread call, which returns the error number instead of setting errno.
    package static func pthread(_ name: @autoclosure () -> String, _ call: () -> Int32) throws(SystemCallError) {
        let code = call()
        if code != 0 { throw SystemCallError(call: name(), errno: code) }
    }
}
