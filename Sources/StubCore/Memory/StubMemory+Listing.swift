/// A collection's list: filtered by field, sorted, paged in the API's own style, and shaped by
/// the list template (`{"data": "{{items}}", "meta": {"total": "{{total}}"}}`).
extension StubMemory {
    func list(_ spec: CollectionSpec, _ view: inout RequestView, scope: Scope, parents: [(String, String)]) throws(MemoryError) -> Reply {
        var objects = try objects(spec, scope: scope)
        let reserved = Set(spec.paging.parameters + [spec.sortParameter, "order"].compactMap { $0 })
        var filters: [(path: [String], value: String)] = parents.map { ([$0.0], $0.1) }
        for (name, value) in view.head.allQueryParameters() where !reserved.contains(name) && !RequestControls.queryNames.contains(name)
            && !ControlNames.isControlQuery(name) {
            filters.append((name.split(separator: ".").map(String.init), value))
        }
        var values: [JSONValue]
        if filters.isEmpty && sortField(spec, &view) == nil {
            values = []
        } else {
            values = objects.compactMap(\.decoded).filter { object in
                filters.allSatisfy { StubMemory.value(at: $0.path, in: object)?.scalarText == $0.value }
            }
            objects = []
        }
        if let (field, descending) = sortField(spec, &view) {
            values.sort { a, b in
                let order = StubMemory.compare(StubMemory.value(at: field, in: a), StubMemory.value(at: field, in: b))
                return descending ? order > 0 : order < 0
            }
        }
        let total = objects.isEmpty ? values.count : objects.count
        let page = StubMemory.page(spec.paging, &view, total: total)
        let items: [JSONValue] = objects.isEmpty
            ? Array(values[page.range])
            : objects[page.range].compactMap(\.decoded)
        var numbers: [String: JSONValue] = [
            "items": .array(items), "total": .number(Double(total)), "size": .number(Double(page.size)),
            "limit": .number(Double(page.size)), "offset": .number(Double(page.range.lowerBound)),
            "page": .number(Double(page.range.lowerBound / max(page.size, 1) + 1)),
            "pages": .number(Double(page.size == 0 ? 0 : (total + page.size - 1) / page.size)),
            "nextCursor": page.range.upperBound < total ? .string(StubMemory.cursor(page.range.upperBound)) : .null,
        ]
        if spec.paging.style == .none { numbers["size"] = .number(Double(total)); numbers["limit"] = numbers["size"] }
        let body = spec.list.map { StubMemory.fill($0, numbers) } ?? .array(items)
        return Reply(status: 200, headers: StubMemory.jsonHeaders + [HTTPHeader("X-Total-Count", String(total))],
                     body: Array(body.serialized().utf8))
    }

    /// `?sort=title` or `?sort=-title` (also `&order=desc`); nil without.
    private func sortField(_ spec: CollectionSpec, _ view: inout RequestView) -> (path: [String], descending: Bool)? {
        guard let name = spec.sortParameter, var field = view.query(name), !field.isEmpty else { return nil }
        var descending = view.query("order")?.lowercased() == "desc"
        if field.hasPrefix("-") { field.removeFirst(); descending = true }
        return (field.split(separator: ".").map(String.init), descending)
    }

    /// The slice of `total` the request asks for, and the page size.
    static func page(_ paging: CollectionPaging, _ view: inout RequestView, total: Int) -> (range: Range<Int>, size: Int) {
        let size = min(max(Int(view.query(paging.size) ?? "") ?? paging.defaultSize, 0), paging.maxSize)
        let start: Int
        switch paging.style {
        case .none: return (0..<total, total)
        case .page: start = (max(Int(view.query(paging.position) ?? "") ?? 1, 1) - 1) * size
        case .offset: start = max(Int(view.query(paging.position) ?? "") ?? 0, 0)
        case .cursor: start = view.query(paging.position).flatMap(StubMemory.offset(ofCursor:)) ?? 0
        }
        let lower = min(start, total)
        return (lower..<min(lower + size, total), size)
    }

    /// An opaque cursor for an offset (`c14` for 40: base 36), and the offset of one.
    static func cursor(_ offset: Int) -> String { "c" + String(offset, radix: 36) }
    static func offset(ofCursor cursor: String) -> Int? {
        guard cursor.hasPrefix("c") else { return nil }
        return Int(cursor.dropFirst(), radix: 36)
    }

    /// The value at a dotted path in an object.
    static func value(at path: [String], in object: JSONValue) -> JSONValue? {
        var value = object
        for step in path {
            guard let next = value[step] else { return nil }
            value = next
        }
        return value
    }

    /// Numbers by value, strings by their text, absent and null first.
    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        switch (a, b) {
        case let (.number(x)?, .number(y)?): return x.value < y.value ? -1 : (x.value > y.value ? 1 : 0)
        case (nil, nil), (.null?, .null?), (nil, .null?), (.null?, nil): return 0
        case (nil, _), (.null?, _): return -1
        case (_, nil), (_, .null?): return 1
        default:
            let x = a!.scalarText ?? a!.serialized(), y = b!.scalarText ?? b!.serialized()
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }

    /// The list template with its typed placeholders filled; other strings keep their text with
    /// each placeholder replaced by the value's text.
    static func fill(_ template: JSONValue, _ values: [String: JSONValue]) -> JSONValue {
        switch template {
        case .string(let s):
            if s.hasPrefix("{{"), s.hasSuffix("}}"), let value = values[PathText.trimmed(s.dropFirst(2).dropLast(2))] { return value }
            return .string(s)
        case .array(let items): return .array(items.map { fill($0, values) })
        case .object(let members): return .object(members.map { ($0.key, fill($0.value, values)) })
        default: return template
        }
    }
}
