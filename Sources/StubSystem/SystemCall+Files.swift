#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemCall {
    /// Creates or replaces the file at `path` with `bytes`: one open, writes until all are out,
    /// close. No fsync, unlike Foundation's `Data.write`, which syncs every file it writes (7 ms
    /// a file on an ext4 /tmp): a written stub tree or test fixture need not outlive a power cut,
    /// and an import or a test writes hundreds.
    package static func writeFile(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let fd = try run("open \(path)") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            written += try run("write \(path)") { bytes.withUnsafeBytes { LibC.write(fd, $0.baseAddress! + written, $0.count - written) } }
        }
    }
}
