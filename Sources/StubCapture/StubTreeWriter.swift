#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Writes a `CaptureLayout` into a stub root. An import never replaces a file or merges into an
/// existing route folder unless told to; a recording replaces the service folders it owns whole.
/// Every file is written to a hidden temporary name (which the loader and the watcher skip) and
/// renamed, so no half-written file is ever seen.
public struct StubTreeWriter: Sendable {
    /// The stub root.
    public let root: String

    /// A writer into `root`.
    public init(root: String) { self.root = root }

    /// Files and route folders of `layout` that already exist.
    public func conflicts(_ layout: CaptureLayout) -> [String] {
        var found: [String] = []
        for service in layout.services {
            if exists("\(service.name)/_service.json") { found.append("\(service.name)/_service.json") }
            for route in service.routes where exists("\(service.name)/\(route.folder)") { found.append("\(service.name)/\(route.folder)/") }
        }
        return found
    }

    /// Writes every file; with `overwrite`, route folders being written lose their other files first.
    public func write(_ layout: CaptureLayout, overwrite: Bool) throws(CaptureWriteError) {
        if !overwrite, let first = conflicts(layout).first { throw CaptureWriteError(path: first, problem: "already exists; pass --overwrite to replace it") }
        for service in layout.services {
            if overwrite {
                for route in service.routes { try clear("\(service.name)/\(route.folder)") }
            }
            for file in layout.files(of: service) { try put(file) }
        }
    }

    /// Writes `files` (paths relative to the root). The folders holding a `route.json` among them
    /// are route folders: without `overwrite`, an existing route folder or file stops the write
    /// before anything is written; with it, those route folders lose their other files first.
    public func write(files: [CaptureLayout.File], overwrite: Bool) throws(CaptureWriteError) {
        let routeFolders = files.filter { $0.path.hasSuffix("/route.json") }.map { String($0.path.dropLast("/route.json".count)) }
        if !overwrite {
            if let folder = routeFolders.first(where: exists) { throw CaptureWriteError(path: folder + "/", problem: "already exists; pass --overwrite to replace it") }
            if let file = files.first(where: { exists($0.path) }) { throw CaptureWriteError(path: file.path, problem: "already exists; pass --overwrite to replace it") }
        } else {
            for folder in routeFolders { try clear(folder) }
        }
        for file in files { try put(file) }
    }

    /// Replaces the folder of `service` as a whole (a recording owns its service folders).
    public func replace(_ service: CaptureLayout.Service, of layout: CaptureLayout) throws(CaptureWriteError) {
        let staging = ".stubd-staging-\(service.name)"
        try remove(staging)
        for file in layout.files(of: service) {
            let relative = staging + String(file.path.dropFirst(service.name.count))
            try put(CaptureLayout.File(path: relative, bytes: file.bytes))
        }
        let old = ".stubd-old-\(service.name)"
        try remove(old)
        if exists(service.name) { try move(service.name, to: old) }
        try move(staging, to: service.name)
        try remove(old)
    }

    /// True when `relative` exists under the root.
    public func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + relative) }

    func put(_ file: CaptureLayout.File) throws(CaptureWriteError) {
        let full = root + "/" + file.path
        let folder = String(full[..<(full.lastIndex(of: "/") ?? full.endIndex)])
        let temporary = folder + "/.stubd-writing-\(getpid())-" + String(file.path.split(separator: "/").last ?? "")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(file.bytes).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw CaptureWriteError(path: file.path, problem: "cannot be written: \(error)")
        }
        guard rename(temporary, full) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CaptureWriteError(path: file.path, problem: "cannot be written: \(reason)")
        }
    }

    func clear(_ relative: String) throws(CaptureWriteError) {
        let full = root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names { try remove(relative + "/" + name) }
    }

    func remove(_ relative: String) throws(CaptureWriteError) {
        guard exists(relative) else { return }
        do { try FileManager.default.removeItem(atPath: root + "/" + relative) } catch {
            throw CaptureWriteError(path: relative, problem: "cannot be removed: \(error)")
        }
    }

    func move(_ from: String, to: String) throws(CaptureWriteError) {
        guard rename(root + "/" + from, root + "/" + to) == 0 else {
            throw CaptureWriteError(path: from, problem: "cannot be renamed to \(to): \(String(cString: strerror(errno)))")
        }
    }
}

/// A file a capture could not be written to, and why.
public struct CaptureWriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder, relative to the stub root.
    public let path: String
    /// What went wrong.
    public let problem: String
    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
