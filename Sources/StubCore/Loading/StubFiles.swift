import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system reads of the loader and the spec reader, straight on POSIX: a folder listing
/// that takes each entry's kind from the directory itself (no `stat` per entry unless the file
/// system does not say), and a whole-file read of regular files only, bounded in size. A tree of
/// 10,000 routes is about 100,000 system calls, so each one saved counts.
package enum StubFiles {
    /// One name in a folder.
    package struct Entry: Equatable {
        /// The name in its folder.
        package let name: String
        /// True for a folder, or a link to one.
        package let isDirectory: Bool
        /// True for a symbolic link (followed).
        package var isLink = false
    }

    /// Which folder a listing read, whatever path led there.
    package struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// A folder's entries and its identity.
    package struct Listing {
        /// The folder read.
        package let identity: Identity
        /// Its entries, sorted by name.
        package let entries: [Entry]
    }

    /// The entries of `path`, sorted by name, skipping hidden files and editor leftovers
    /// (`x~`, `.swp`, `#x#`); the error when the folder cannot be read.
    static func list(_ path: String) -> Result<Listing, ListError> {
        guard let dir = opendir(path) else { return .failure(ListError(errno: errno)) }
        defer { closedir(dir) }
        var info = stat()
        guard fstat(dirfd(dir), &info) == 0 else { return .failure(ListError(errno: errno)) }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        var entries: [Entry] = []
        while let raw = readdir(dir) {
            let name = LibC.entryName(raw)
            guard !name.hasPrefix("."), !name.hasSuffix("~"), !name.hasSuffix(".swp"), !name.hasPrefix("#") else { continue }
            let type = raw.pointee.d_type
            let isDirectory = type == UInt8(DT_DIR) || (type != UInt8(DT_REG) && FileKind.of(PathText.join(path, name)) == .directory)
            entries.append(Entry(name: name, isDirectory: isDirectory, isLink: type == UInt8(DT_LNK)))
        }
        return .success(Listing(identity: identity, entries: entries.sorted { $0.name < $1.name }))
    }

    /// Why a folder could not be listed.
    struct ListError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    /// The identity of the folder at `path` (links followed), or nil when there is none.
    package static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Why a file was not read.
    package enum ReadError: Error, Equatable, CustomStringConvertible {
        /// open, fstat or read failed.
        case failed(errno: Int32)
        /// A FIFO, a device, a socket or a folder: reading it could block for ever or never end.
        case notRegular(kind: String)
        /// Larger than the limit.
        case tooLarge(bytes: Int, limit: Int)

        package var description: String {
            switch self {
            case .failed(let code): return "cannot be read: \(String(cString: strerror(code)))"
            case .notRegular(let kind): return "is \(kind), not a regular file; only regular files are read"
            case .tooLarge(let bytes, let limit): return "is \(bytes) bytes, over the limit of \(limit) bytes"
            }
        }
    }

    /// The largest stub file read (a body, a route.json): 64 MiB.
    package static let maxStubFileBytes = 64 << 20

    /// The bytes of the regular file at `path`, at most `limit` of them. The array is exactly as
    /// large as the file: catalogs keep these bytes for as long as they are served. The file is
    /// opened without blocking and checked with `fstat` before a byte is read, so a FIFO or a
    /// device (`/dev/zero`) is refused, not waited on or read for ever.
    package static func read(_ path: String, limit: Int = maxStubFileBytes) -> Result<[UInt8], ReadError> {
        let fd: Int32
        do { fd = try SystemCall.run("open", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) } catch {
            return .failure(.failed(errno: error.errno))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.failed(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: StubFiles.kind(info.st_mode))) }
        let size = Int(info.st_size)
        guard size <= limit else { return .failure(.tooLarge(bytes: size, limit: limit)) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = (try? SystemCall.run("read", { LibC.read(fd, into: &bytes, from: filled) })) ?? -1
            if n < 0 { return .failure(.failed(errno: errno)) }
            if n == 0 { break }
            filled += n
        }
        // A file that shrank while it was read: what was there.
        if filled < size { bytes.removeLast(size - filled) }
        return .success(bytes)
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "a special file"
        }
    }
}
