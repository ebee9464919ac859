import Foundation
import StubCore

/// A throwaway stub directory written from a path → contents map, removed on deinit.
final class TemporaryStubs {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-test-\(UUID().uuidString)")
        try write(files)
    }

    func write(_ files: [String: String]) throws {
        for (path, contents) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
    }

    func load() -> Result<StubCatalog, StubLoadFailure> {
        StubLoader.load(directory: url.path)
    }

    func catalog() throws -> StubCatalog {
        try load().get()
    }

    func problems() -> [String] {
        switch load() {
        case .success: return []
        case .failure(let f): return f.problems.map(\.description)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The repository's shipped Stubs/ directory.
enum ShippedStubs {
    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Stubs")
    }
}
