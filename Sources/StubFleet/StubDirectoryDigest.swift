// Foundation, not FoundationEssentials: URL components, percent decoding and the directory walk.
import Foundation

/// A short digest of a stub directory's files (names and contents), so health can say when the
/// replicas of a fleet serve different stubs.
enum StubDirectoryDigest {
    /// 16 hex digits of FNV-1a over every regular file's relative path and bytes, in path order;
    /// hidden files and folders are left out, as the loader leaves them out.
    static func digest(_ directory: String) -> String {
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return "none" }
        var files: [(path: String, url: URL)] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append((String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count)), url))
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        for file in files.sorted(by: { $0.path < $1.path }) {
            mix(file.path.utf8)
            mix([0])
            if let data = try? Data(contentsOf: file.url) { mix(data) }
            mix([0])
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
