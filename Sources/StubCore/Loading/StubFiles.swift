
/// The file-system reads of the loader, straight on POSIX: a folder listing that takes each entry's
/// kind from the directory itself (no `stat` per entry unless the file system does not say), and a
/// whole-file read without a `stat`. A tree of 10,000 routes is about 100,000 system calls, so
/// each one saved counts.
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
            let name = withUnsafeBytes(of: raw.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
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

    /// The bytes of the file at `path`, or nil when it cannot be opened or read. The array is
    /// exactly as large as the file: catalogs keep these bytes for as long as they are served.
    static func read(_ path: String) -> [UInt8]? {
        guard let fd = try? SystemCall.run("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { close(fd) }
        let chunk = 64 * 1024
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk) { scratch -> [UInt8]? in
            var bytes: [UInt8] = []
            while true {
                guard let n = try? SystemCall.run("read", { LibC.read(fd, scratch.baseAddress, chunk) }) else { return nil }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<n]))
                // A short read of a regular file is its end; asking again would cost a call per file.
                if n < chunk { return bytes }
            }
        }
    }
}
