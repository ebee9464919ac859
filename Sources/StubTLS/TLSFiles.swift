#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes key material. Writes are atomic (a temporary file renamed over the old
/// one), so an interrupted `tls init` never leaves half a key, and keys are created readable
/// by the user only.
enum TLSFiles {
    /// The whole file, or an error naming it and the reason.
    static func read(_ path: String) throws(TLSError) -> [UInt8] {
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.run("open") { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw TLSError(file: path, "cannot be read: \(String(cString: strerror(error.errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try SystemCall.run("read") { LibC.read(fd, raw.baseAddress, raw.count) } }
            }
            guard case .success(let count) = result else {
                if case .failure(let error) = result { throw TLSError(file: path, "cannot be read: \(String(cString: strerror(error.errno)))") }
                return bytes
            }
            if count == 0 { return bytes }
            bytes += chunk.prefix(count)
            // Key material is a few KiB; anything far larger is not what was meant.
            if bytes.count > 1 << 20 { throw TLSError(file: path, "is over 1 MiB: not a PEM certificate or key") }
        }
    }

    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Replaces `path` with `bytes`, created with `mode`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TLSError) {
        let temporary = path + ".tmp-\(getpid())"
        do throws(SystemCallError) {
            let fd = try SystemCall.run("open") { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
            do throws(SystemCallError) {
                // The mode again: the umask may have taken bits away from a world-readable file.
                try SystemCall.run("fchmod") { fchmod(fd, mode) }
                var offset = 0
                while offset < bytes.count {
                    offset += try bytes.withUnsafeBytes { raw in
                        Result { () throws(SystemCallError) in try SystemCall.run("write") { LibC.write(fd, raw.baseAddress! + offset, raw.count - offset) } }
                    }.get()
                }
                try SystemCall.run("fsync") { fsync(fd) }
            } catch {
                close(fd)
                throw error
            }
            close(fd)
            try SystemCall.run("rename") { rename(temporary, path) }
        } catch {
            // A temporary file never made, or renamed already, leaves nothing to remove.
            unlink(temporary)
            throw TLSError(file: path, "cannot be written: \(error.call) failed: \(String(cString: strerror(error.errno)))")
        }
    }

    /// Makes `path` and its parents; the last one readable by the user only.
    static func makeDirectory(_ path: String) throws(TLSError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSError(file: path, "cannot be created: \(error)")
        }
    }
}
