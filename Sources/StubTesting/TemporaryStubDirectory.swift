import Foundation
import StubSystem

/// A stub directory written from a `path → contents` map, for tests that define their stubs inline.
/// It is removed when the object goes away.
///
/// ```swift
/// let stubs = try TemporaryStubDirectory([
///     "api/hello/route.json": #"{"method": "GET", "path": "/hello"}"#,
///     "api/hello/200.json": #"{"greeting": "hi"}"#,
/// ])
/// let server = try StubServer(stubsAt: stubs.url, port: 0)
/// ```
public final class TemporaryStubDirectory: Sendable {
    /// The directory's location, under the system's temporary directory.
    public let url: URL

    /// Creates the directory and writes `files` (paths relative to it).
    public init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write(files)
    }

    /// Writes or replaces files, creating folders as needed.
    public func write(_ files: [String: String]) throws {
        for (path, contents) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SystemCall.writeFile(Array(contents.utf8), to: file.path)
        }
    }

    /// Removes a file or folder (relative path).
    public func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(path))
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
