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

/// Writes a `CaptureLayout` into a stub root. An import never replaces a file or merges into an
/// existing route folder unless told to; a recording replaces the service folders it owns whole.
/// Every file is written to a hidden temporary name (which the loader and the watcher skip) and
/// renamed, so no half-written file is ever seen.
package struct StubTreeWriter: Sendable {
    /// The stub root.
    package let root: String

    /// A writer into `root`.
    package init(root: String) { self.root = root }

    /// Writes every file of `layout` (see `place`) and keeps it.
    package func write(_ layout: CaptureLayout, overwrite: Bool) throws(CaptureWriteError) {
        try place(files: layout.files, overwrite: overwrite).commit()
    }

    /// Writes `files` (see `place`) and keeps them.
    package func write(files: [CaptureLayout.File], overwrite: Bool) throws(CaptureWriteError) {
        try place(files: files, overwrite: overwrite).commit()
    }

    /// Puts `files` (paths relative to the root) in place as whole units, so the result can be
    /// checked and then kept or taken back: every file is first written into a hidden staging
    /// folder (which the loader and the watcher skip), then each route folder (a folder holding a
    /// `route.json` among them) and each other file is renamed into place. Without `overwrite`,
    /// a unit that exists stops the write before anything is written; with it, the old unit is
    /// moved aside until `commit` (or put back by `rollback`).
    package func place(files: [CaptureLayout.File], overwrite: Bool) throws(CaptureWriteError) -> StagedWrite {
        let units = StubTreeWriter.units(of: files)
        // Files (a service's _service.json) are named before folders, the order a reader expects.
        if !overwrite, let first = units.filter(exists).sorted(by: { $0.hasSuffix(".json") && !$1.hasSuffix(".json") }).first {
            throw CaptureWriteError(path: first.hasSuffix(".json") ? first : first + "/", problem: "already exists; pass --overwrite to replace it")
        }
        var staged = StagedWrite(writer: self, token: "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            var made = Set<String>()
            for file in files { try put(CaptureLayout.File(path: staged.staging + "/" + file.path, bytes: file.bytes, source: file.source), made: &made) }
            for unit in units {
                if exists(unit) {
                    _ = try makeParent(of: staged.aside + "/" + unit)
                    try move(unit, to: staged.aside + "/" + unit)
                    staged.movedAside.append(unit)
                }
                staged.createdFolders += try makeParent(of: unit)
                try move(staged.staging + "/" + unit, to: unit)
                staged.placed.append(unit)
            }
        } catch {
            staged.rollback()
            throw error
        }
        return staged
    }

    /// The units `files` are placed as: route folders, and files outside them.
    static func units(of files: [CaptureLayout.File]) -> [String] {
        let routeFolders = Set(files.filter { $0.path.hasSuffix("/route.json") }.map { String($0.path.dropLast("/route.json".count)) })
        var units: [String] = []
        var seen = Set<String>()
        for file in files {
            let folder = file.path.lastIndex(of: "/").map { String(file.path[..<$0]) }
            let unit = folder.flatMap { routeFolders.contains($0) ? $0 : nil } ?? file.path
            if seen.insert(unit).inserted { units.append(unit) }
        }
        return units
    }

    /// Creates the folders above `relative`; returns those that did not exist, outermost first.
    func makeParent(of relative: String) throws(CaptureWriteError) -> [String] {
        guard let slash = relative.lastIndex(of: "/") else { return [] }
        let folder = String(relative[..<slash])
        var missing: [String] = []
        var path = ""
        for part in folder.split(separator: "/") {
            path += path.isEmpty ? String(part) : "/" + part
            if !exists(path) { missing.append(path) }
        }
        do { try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) } catch {
            throw CaptureWriteError(path: folder, problem: "cannot be created: \(error)")
        }
        return missing
    }

    /// Replaces the folder of `service` as a whole (a recording owns its service folders).
    package func replace(_ service: CaptureLayout.Service, of layout: CaptureLayout) throws(CaptureWriteError) {
        let staging = ".stubd-staging-\(service.name)"
        try remove(staging)
        var made = Set<String>()
        for file in layout.files(of: service) {
            let relative = staging + String(file.path.dropFirst(service.name.count))
            try put(CaptureLayout.File(path: relative, bytes: file.bytes, source: file.source), made: &made)
        }
        let old = ".stubd-old-\(service.name)"
        try remove(old)
        if exists(service.name) { try move(service.name, to: old) }
        try move(staging, to: service.name)
        try remove(old)
    }

    /// True when `relative` exists under the root.
    package func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + relative) }

    /// Writes one file straight to its place: every caller writes into a hidden staging folder
    /// that is renamed into view whole, so no temporary name per file is needed. `made` holds the
    /// folders already created, so a tree of thousands of files costs one mkdir per folder.
    func put(_ file: CaptureLayout.File, made: inout Set<String>) throws(CaptureWriteError) {
        let full = root + "/" + file.path
        let folder = String(full[..<(full.lastIndex(of: "/") ?? full.endIndex)])
        do {
            if made.insert(folder).inserted { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            if let source = file.source {
                // A spooled body: linked, not copied (a copy when the two are on other file systems).
                if link(source, full) != 0 { try FileManager.default.copyItem(atPath: source, toPath: full) }
            } else {
                try SystemCall.writeFile(file.bytes, to: full)
            }
        } catch {
            throw CaptureWriteError(path: file.path, problem: "cannot be written: \(error)")
        }
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

/// Files put in place by `StubTreeWriter.place`, to keep (`commit`) or take back (`rollback`)
/// once the result has been checked.
package struct StagedWrite {
    let writer: StubTreeWriter
    let token: String
    var placed: [String] = []
    var movedAside: [String] = []
    /// Folders created to hold placed units, removed again by `rollback`.
    var createdFolders: [String] = []

    var staging: String { ".stubd-staging-\(token)" }
    var aside: String { ".stubd-old-\(token)" }

    init(writer: StubTreeWriter, token: String) {
        self.writer = writer
        self.token = token
    }

    /// Keeps what was placed; what it replaced is deleted.
    package func commit() {
        try? writer.remove(aside)
        try? writer.remove(staging)
    }

    /// Takes back what was placed and puts back what it replaced.
    package func rollback() {
        for unit in placed.reversed() { try? writer.remove(unit) }
        for unit in movedAside.reversed() { try? writer.move(aside + "/" + unit, to: unit) }
        try? writer.remove(aside)
        try? writer.remove(staging)
        for folder in createdFolders.reversed() { rmdir(writer.root + "/" + folder) }
    }
}

/// A file a capture could not be written to, and why.
package struct CaptureWriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder, relative to the stub root.
    package let path: String
    /// What went wrong.
    package let problem: String
    /// `path: problem`.
    package var description: String { "\(path): \(problem)" }
}
