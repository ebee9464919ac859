#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to standard output and error, whole lines at a time.
package enum StandardStreams {
    /// Writes all of `text` to `fd`, retrying short writes and EINTR; a closed stream drops it.
    package static func write(_ text: String, to fd: Int32) {
        write(Array(text.utf8), to: fd)
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; a closed stream drops them.
    package static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let n = try? SystemCall.run("write", { LibC.write(fd, raw.baseAddress! + offset, raw.count - offset) }) else { return }
                offset += n
            }
        }
    }
}
