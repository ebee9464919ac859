/// `import-openapi --collections`: where a collection's folder goes, and the report's lines.
extension OpenAPIImporter {
    /// The folder the list operation's route would have (its `operationId`, else `get` and the
    /// path); without a list operation, the list path's last segment.
    static func folder(for resource: RestResource) -> String {
        if let list = resource.list { return slug(list.operationID ?? "get\(list.path)") }
        return slug(resource.path.split(separator: "/").last.map(String.init) ?? resource.path)
    }

    /// `base`, or `base-2`, `base-3`… when a folder of that name (in any case) is taken; marked taken.
    static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var folder = base
        var n = 2
        while taken.contains(folder.lowercased()) { folder = "\(base)-\(n)"; n += 1 }
        taken.insert(folder.lowercased())
        return folder
    }

    /// The collections written and the candidates refused, one line each, in document order
    /// (refusals after the collections).
    static func report(_ finder: ResourceFinder, written: [String: String]) -> [String] {
        finder.resources.compactMap { written[$0.path] } + finder.rejected
    }
}
