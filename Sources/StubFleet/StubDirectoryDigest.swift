#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// A short digest of a stub directory's files (names and contents), so health can say when the
/// replicas of a fleet serve different stubs.
enum StubDirectoryDigest {
    /// 16 hex digits of FNV-1a over every file's path in the stub tree and its bytes, in path
    /// order. The files are those the loader walks (`StubTree`: hidden ones left out).
    static func digest(_ directory: String) -> String {
        let tree = StubTree.walk(directory)
        var files: [(relative: String, path: String)] = []
        for folder in tree.folders {
            let base = tree.path(of: folder)
            for entry in folder.entries where !entry.isDirectory {
                files.append((folder.relative + "/" + entry.name, base + "/" + entry.name))
            }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        for file in files.sorted(by: { $0.relative < $1.relative }) {
            mix(file.relative.utf8)
            mix([0])
            if let data = FileManager.default.contents(atPath: file.path) { mix(data) }
            mix([0])
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
