/// A route folder declared a collection (`"collection"` in route.json): one folder, six routes
/// (`app/todos:list`, `:create`, `:get`, `:replace`, `:update`, `:delete`), each answering from
/// the collection by default, each with the folder's other variants beside it.
extension RouteLoader {
    static let collectionKeys = ["path", "collection", "headers", "variants", "delay", "throttle", "description"]
    static let collectionSpecKeys = ["seed", "id", "ids", "idParameter", "pagination", "sort", "list"]

    func loadCollection(_ members: [(key: String, value: JSONValue)], reader: ValueReader) -> [Route] {
        for (key, _) in members where !RouteLoader.collectionKeys.contains(key) {
            reader.fail(key, key == "method"
                ? "a collection answers GET, POST, PUT, PATCH and DELETE itself; expected no method"
                : "unknown key in a collection's route.json; expected one of \(RouteLoader.collectionKeys.joined(separator: ", "))")
        }
        let value = { (key: String) in members.first { $0.key == key }?.value }
        guard case .string(let path)? = value("path"), path.hasPrefix("/"), !path.hasSuffix("/") || path == "/" else {
            reader.fail("path", "expected the list's path like \"/todos\" (starting with '/', without a trailing one)")
            return []
        }
        let listTemplate = PathTemplate(defaults.basePath + (path == "/" ? "" : path))
        checkTemplate(listTemplate, reader: reader)
        guard let spec = collectionSpec(value("collection")!, path: listTemplate, reader: reader) else { return [] }
        let itemTemplate = PathTemplate(listTemplate.text + "/{\(spec.idParameter)}")
        var routeHeaders: [HTTPHeader] = []
        var delay = defaults.delay, throttle = defaults.throttle
        if let h = value("headers") { routeHeaders = reader.headers(h, at: "headers") ?? [] }
        if let d = value("delay") { delay = reader.delay(d, at: "delay") ?? delay }
        if let t = value("throttle") { throttle = reader.throttle(t, at: "throttle") ?? throttle }
        let context = VariantContext(reader: reader, parameters: itemTemplate.parameterNames, baseHeaders: defaults.headers + routeHeaders,
                                     envelope: defaults.envelope, delay: delay, throttle: throttle)
        var others: [Variant] = []
        if let list = value("variants") {
            guard case .object(let entries) = list else {
                reader.fail("variants", "expected an object of variant name to variant, found \(list.kindDescription)")
                return []
            }
            for (name, json) in entries {
                if name == RouteMemory.collectionVariant { reader.fail("variants.\(name)", "\"\(name)\" is the collection's own answer; choose another name") }
                others += context.variant(name: name, json: json, file: nil).map { [$0] } ?? []
            }
        }
        let service = self.service ?? ""
        return CollectionAction.allCases.map { action in
            let status = action == .create ? 201 : (action == .delete ? 204 : 200)
            let own = Variant(name: RouteMemory.collectionVariant, status: status, headers: defaults.headers + routeHeaders, body: [],
                              delay: delay, throttleBytesPerSecond: throttle, description: "the collection's answer")
            return Route(id: "\(folder):\(action.rawValue)", service: self.service, name: PathText.lastComponent(folder), method: action.method,
                         template: action.onItem ? itemTemplate : listTemplate, variants: [own] + others, defaultIndex: 0,
                         errorEnvelope: defaults.envelope, memory: RouteMemory(service: service, collection: (spec, action)))
        }
    }

    /// The `collection` object, with its seed read and checked.
    private func collectionSpec(_ json: JSONValue, path: PathTemplate, reader: ValueReader) -> CollectionSpec? {
        guard let members = reader.object(json, at: "collection", allowed: RouteLoader.collectionSpecKeys) else { return nil }
        let value = { (key: String) in members.first { $0.key == key }?.value }
        let p = { (key: String) in "collection." + key }
        let idField = value("id").flatMap { reader.string($0, at: p("id")) } ?? "id"
        let idParameter = value("idParameter").flatMap { reader.string($0, at: p("idParameter")) } ?? "id"
        if path.parameterNames.contains(idParameter) {
            reader.fail(p("idParameter"), "the list path already has {\(idParameter)}; name the item's parameter another way (\"idParameter\": \"\(idParameter)2\")")
        }
        var seed: [JSONValue] = []
        if let file = value("seed").flatMap({ reader.string($0, at: p("seed")) }) {
            seed = readSeed(file, idField: idField) ?? []
        }
        var ids: CollectionSpec.IDKind = seed.contains { if case .string? = $0[idField] { return true } else { return false } } ? .uuid : .integer
        if let kind = value("ids") {
            guard let text = reader.string(kind, at: p("ids")), let parsed = CollectionSpec.IDKind(rawValue: text) else {
                reader.fail(p("ids"), "expected \"integer\" or \"uuid\"")
                return nil
            }
            ids = parsed
        }
        let paging = value("pagination").flatMap { pagination($0, at: p("pagination"), reader: reader) } ?? CollectionPaging()
        let sort = value("sort").flatMap { reader.string($0, at: p("sort")) } ?? "sort"
        var list: JSONValue?
        if let template = value("list") {
            list = template
            if !template.serialized().contains("{{items}}") { reader.fail(p("list"), "expected \"{{items}}\" somewhere in the list's template") }
        }
        return CollectionSpec(id: folder, service: service ?? "", path: path.text, idField: idField, idParameter: idParameter, ids: ids,
                              parents: path.parameterNames, paging: paging, sortParameter: sort, list: list, seed: seed)
    }

    /// `"pagination": {"style": "page", "page": "page", "size": "per_page", "defaultSize": 20, "maxSize": 100}`.
    private func pagination(_ json: JSONValue, at path: String, reader: ValueReader) -> CollectionPaging? {
        guard let members = reader.object(json, at: path, allowed: ["style", "page", "offset", "cursor", "size", "limit", "defaultSize", "maxSize"]) else { return nil }
        var paging = CollectionPaging()
        let value = { (key: String) in members.first { $0.key == key }?.value }
        guard let styleText = value("style").flatMap({ reader.string($0, at: path + ".style") }),
              let style = CollectionPaging.Style(rawValue: styleText) else {
            reader.fail(path + ".style", "expected \"page\", \"offset\", \"cursor\" or \"none\"")
            return nil
        }
        paging.style = style
        let defaults: [CollectionPaging.Style: (String, String)] = [.page: ("page", "per_page"), .offset: ("offset", "limit"), .cursor: ("cursor", "limit")]
        (paging.position, paging.size) = defaults[style] ?? ("page", "per_page")
        for key in ["page", "offset", "cursor"] { if let v = value(key), let s = reader.string(v, at: "\(path).\(key)") { paging.position = s } }
        for key in ["size", "limit"] { if let v = value(key), let s = reader.string(v, at: "\(path).\(key)") { paging.size = s } }
        if let v = value("maxSize"), let n = reader.int(v, at: path + ".maxSize", in: 1...100_000) { paging.maxSize = n }
        if let v = value("defaultSize"), let n = reader.int(v, at: path + ".defaultSize", in: 1...100_000) { paging.defaultSize = min(n, paging.maxSize) }
        return paging
    }

    /// The seed file beside route.json: an array of objects, each with a distinct id.
    private func readSeed(_ name: String, idField: String) -> [JSONValue]? {
        let relative = "\(folder)/\(name)"
        guard entries.contains(where: { $0.name == name && !$0.isDirectory }) else {
            log.add(routeFile, "collection.seed", "expected a file \(name) beside route.json, found none")
            return nil
        }
        guard let json = StubLoader.readJSON(root: root, relative: relative, log: log) else { return nil }
        let reader = ValueReader(file: relative, log: log)
        guard case .array(let items) = json else {
            reader.fail("", "expected an array of objects, found \(json.kindDescription)")
            return nil
        }
        var seen: [String: Int] = [:]
        var ok = true
        for (i, item) in items.enumerated() {
            guard case .object = item else { reader.fail("[\(i)]", "expected an object, found \(item.kindDescription)"); ok = false; continue }
            guard let key = item[idField].flatMap(CollectionSpec.key) else {
                reader.fail("[\(i)].\(idField)", "expected an id (a string or a whole number), found \(item[idField]?.kindDescription ?? "none")")
                ok = false
                continue
            }
            if let first = seen[key] { reader.fail("[\(i)].\(idField)", "duplicate id \(key); [\(first)] has it too"); ok = false }
            seen[key] = seen[key] ?? i
        }
        return ok ? items : nil
    }
}
