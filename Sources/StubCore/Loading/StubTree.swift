#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders of a stub directory, found by the one walk that both the loader and the reload
/// watcher use, so the watcher looks at exactly what the loader reads. The layout bounds the
/// depth: the root, service folders, route folders, nothing below. Hidden names are skipped at
/// every level; a folder reached twice (a link back up the tree, or two links to one folder) is
/// read once and the second way in is a problem; links that leave the stub root are followed and
/// reported as warnings.
package struct StubTree {
    /// What a folder is to the loader.
    package enum Role: Equatable { case root, service, route }

    /// One folder the loader reads, with its entries.
    package struct Folder {
        /// The path relative to the root ("" for the root itself).
        package let relative: String
        /// Root, service or route.
        package let role: Role
        /// For a route folder, the service folder it belongs to.
        package let service: String?
        /// Its entries, sorted by name, hidden names left out.
        package let entries: [StubFiles.Entry]
    }

    /// The absolute, standardized root.
    package let root: String
    /// Every folder read, in walk order (a service before its routes).
    package private(set) var folders: [Folder] = []
    /// Folders that cannot be read, and second ways into a folder already read.
    package private(set) var problems: [StubProblem] = []
    /// Links that point outside the stub root (followed).
    package private(set) var warnings: [StubProblem] = []

    private var visited: Set<StubFiles.Identity> = []
    private var realRoot: String

    /// Walks `root` (already standardized and known to be a folder).
    package static func walk(_ root: String) -> StubTree {
        var tree = StubTree(root: root)
        guard let top = tree.list("") else { return tree }
        tree.add("", role: .root, service: nil, entries: top)
        for entry in top where entry.isDirectory {
            guard let inner = tree.list(entry.name) else { continue }
            // A folder with a route.json is a route; any other folder is a service of routes.
            guard !inner.contains(where: { $0.name == "route.json" && !$0.isDirectory }) else {
                tree.add(entry.name, role: .route, service: nil, entries: inner)
                continue
            }
            tree.add(entry.name, role: .service, service: nil, entries: inner)
            // A service's route folders are listed in parallel, then taken in name order, so
            // which of two ways into one folder counts as the second does not depend on timing.
            let routes = inner.filter(\.isDirectory).map { "\(entry.name)/\($0.name)" }
            for (relative, listing) in zip(routes, routes.parallelMap(above: RouteJob.parallelAbove) { StubFiles.list(PathText.join(root, $0)) }) {
                if let routeEntries = tree.accept(relative, listing) { tree.add(relative, role: .route, service: entry.name, entries: routeEntries) }
            }
        }
        return tree
    }

    private init(root: String) {
        self.root = root
        realRoot = StubTree.realPath(root) ?? root
    }

    /// The absolute path of a folder of this tree.
    package func path(of folder: Folder) -> String {
        folder.relative.isEmpty ? root : PathText.join(root, folder.relative)
    }

    /// A folder's entries, read once; nil when it cannot be listed or was already read by another
    /// way in (both recorded as problems). Links among the entries that leave the root are warned of.
    private mutating func list(_ relative: String) -> [StubFiles.Entry]? {
        accept(relative, StubFiles.list(relative.isEmpty ? root : PathText.join(root, relative)))
    }

    /// The entries of the folder at `relative`, as `listing` read them; nil when it could not be
    /// listed or was already read by another way in.
    private mutating func accept(_ relative: String, _ listing: Result<StubFiles.Listing, StubFiles.ListError>) -> [StubFiles.Entry]? {
        let shown = relative.isEmpty ? "." : relative
        switch listing {
        case .failure(let error):
            problems.append(StubProblem(file: shown, location: .file, message: "cannot list folder: \(error)"))
            return nil
        case .success(let listing):
            guard visited.insert(listing.identity).inserted else {
                problems.append(StubProblem(file: shown, location: .file,
                    message: "leads to a folder already read (a link back into the tree); expected each folder to be reached one way only"))
                return nil
            }
            for entry in listing.entries where entry.isLink {
                checkLink(relative.isEmpty ? entry.name : "\(relative)/\(entry.name)")
            }
            return listing.entries
        }
    }

    private mutating func add(_ relative: String, role: Role, service: String?, entries: [StubFiles.Entry]) {
        folders.append(Folder(relative: relative, role: role, service: service, entries: entries))
    }

    /// Warns about a link whose target is outside the stub root.
    private mutating func checkLink(_ relative: String) {
        guard let target = StubTree.realPath(PathText.join(root, relative)) else { return }
        if target != realRoot && !target.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") {
            warnings.append(StubProblem(file: relative, location: .file,
                message: "links outside the stub directory, to \(target); it is followed"))
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
