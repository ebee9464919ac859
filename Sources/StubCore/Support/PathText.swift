import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small string and file helpers the core needs without all of Foundation (the executable
/// links FoundationEssentials only, which keeps the container image small).
package enum PathText {
    // These find their separators among the bytes: a search by character breaks the whole name
    // into graphemes first, which for a large stub tree cost more than reading the files.

    /// `200-user.json` → `json`.
    static func pathExtension(_ name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(name[name.utf8.index(after: dot)...])
    }

    /// `200-user.json` → `200-user`.
    static func deletingPathExtension(_ name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `root` and `name` joined by one slash.
    package static func join(_ root: String, _ name: String) -> String {
        root.hasSuffix("/") ? root + name : root + "/" + name
    }

    /// `app/user` → `user`.
    static func lastComponent(_ path: String) -> String {
        path.utf8.split(separator: UInt8(ascii: "/")).last.map { String(Substring($0)) } ?? path
    }

    /// The first range of `target` in `text`.
    static func range(of target: String, in text: Substring) -> Range<String.Index>? {
        guard !target.isEmpty else { return nil }
        var i = text.startIndex
        while i < text.endIndex {
            if text[i...].hasPrefix(target) { return i..<text.index(i, offsetBy: target.count) }
            i = text.index(after: i)
        }
        return nil
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

/// What is at a path, from stat(2).
package enum FileKind {
    case missing, file, directory

    package static func of(_ path: String) -> FileKind {
        var info = stat()
        guard (try? SystemCall.run("stat", { stat(path, &info) })) != nil else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }
}
