import Foundation
import StubCore
import StubTesting

/// A throwaway stub directory plus the loader calls the core tests make on it.
final class TemporaryStubs {
    let directory: TemporaryStubDirectory
    var url: URL { directory.url }

    init(_ files: [String: String]) throws {
        directory = try TemporaryStubDirectory(files)
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
}

/// The repository's shipped Stubs/ directory.
enum ShippedStubs {
    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Stubs")
    }
}
