import StubCore

/// The list answer: pagination and sorting from the list operation's query parameters, and the
/// envelope template from its response.
extension CollectionBuilder {
    static let pageNames = ["page"]
    static let sizeNames = ["per_page", "perPage", "pageSize", "page_size", "limit", "size"]
    static let offsetNames = ["offset"]
    static let cursorNames = ["cursor", "after", "starting_after", "page_token", "pageToken"]
    static let sortNames = ["sort", "sort_by", "sortBy", "order_by", "orderBy"]
    static let totalNames = ["total", "total_count", "totalCount", "count", "total_results", "totalResults", "total_items", "totalItems",
                             "totalElements", "total_entries"]
    static let pagesNames = ["pages", "total_pages", "totalPages", "page_count", "pageCount"]
    static let currentPageNames = ["page", "current_page", "currentPage", "page_number", "pageNumber"]
    static let nextCursorNames = ["next_cursor", "nextCursor", "next_page_token", "nextPageToken"]

    /// The list operation's query parameter of the first of `names` it has.
    func query(_ names: [String]) -> OpenAPIDocument.Parameter? {
        let parameters = resource.list?.parameters.filter { $0.location == "query" } ?? []
        return names.lazy.compactMap { name in parameters.first { $0.name == name } }.first
    }

    /// `{"style": "page", "page": "page", "size": "per_page", …}` from the list operation's
    /// query parameters: `page` and a size (`per_page`, `pageSize`, `limit`…) for pages, `offset`
    /// and a size for offsets, `cursor`, `after` or `starting_after` for cursors; nil for none.
    /// The size parameter's `default` and `maximum` become `defaultSize` and `maxSize`.
    func pagination() -> JSONValue? {
        let size = query(CollectionBuilder.sizeNames)
        var members: [(key: String, value: JSONValue)]
        if let page = query(CollectionBuilder.pageNames), let size {
            members = [("style", .string("page")), ("page", .string(page.name)), ("size", .string(size.name))]
        } else if let offset = query(CollectionBuilder.offsetNames), let size {
            members = [("style", .string("offset")), ("offset", .string(offset.name)), ("limit", .string(size.name))]
        } else if let cursor = query(CollectionBuilder.cursorNames) {
            members = [("style", .string("cursor")), ("cursor", .string(cursor.name))]
            if let size { members.append(("limit", .string(size.name))) }
        } else {
            return nil
        }
        if let schema = size.flatMap({ synthesizer.resolvedFlat($0.schema) }) {
            if let value = schema["default"]?.wholeNumber(in: 1...Int.max) { members.append(("defaultSize", .number(Double(value)))) }
            if let value = schema["maximum"]?.wholeNumber(in: 1...Int.max) { members.append(("maxSize", .number(Double(value)))) }
        }
        return .object(members)
    }

    /// The list operation's query parameter naming the sort field, if it has one.
    func sortParameter() -> String? { query(CollectionBuilder.sortNames)?.name }

    /// For a list answered as an object holding the array (`{"data": […], "meta": {…}}`), its
    /// template: the document's example of it, else a value made from its schema, with the
    /// array as `{{items}}` and, at the top or one object down, a total-like integer as
    /// `{{total}}`, a page count as `{{pages}}`, and the page, size, offset and next cursor as
    /// theirs where the pagination style has them. Nil for a bare array.
    func listTemplate(style: String?) -> JSONValue? {
        guard case .envelope(let property, let schema) = resource.listShape, let list = resource.list,
              let response = ResourceFinder.success(list) else { return nil }
        var template: JSONValue = response.examples.lazy.compactMap(\.value).first { if case .object = $0 { true } else { false } }
            ?? (response.schema.map { synthesizer.fittingValue($0).value } ?? .object([]))
        if case .object = template {} else { template = .object([]) }
        _ = fill(&template, schema: schema ?? ResourceFinder.schema(describing: template), style: style, depth: 0)
        CollectionBuilder.set(&template, property, .string("{{items}}"))
        return template
    }

    /// Puts placeholders where `schema` has fields for them; true when it put any.
    private func fill(_ value: inout JSONValue, schema: JSONValue, style: String?, depth: Int) -> Bool {
        guard case .object(let properties)? = schema["properties"] else { return false }
        var placed = false
        for (name, raw) in properties {
            let property = synthesizer.resolvedFlat(raw)
            let type = SchemaSynthesizer.declaredType(property)
            if let placeholder = CollectionBuilder.placeholder(name, type: type, style: style) {
                CollectionBuilder.set(&value, name, .string(placeholder))
                placed = true
            } else if depth == 0, type == "object", let property {
                var inner = value[name] ?? .object([])
                guard case .object = inner, fill(&inner, schema: property, style: style, depth: 1) else { continue }
                CollectionBuilder.set(&value, name, inner)
                placed = true
            }
        }
        return placed
    }

    /// The placeholder for a field of the list envelope, by its name and type.
    static func placeholder(_ name: String, type: String?, style: String?) -> String? {
        let number = type == "integer" || type == "number"
        if number && totalNames.contains(name) { return "{{total}}" }
        if number && pagesNames.contains(name) { return "{{pages}}" }
        switch style {
        case "page"?:
            if number && currentPageNames.contains(name) { return "{{page}}" }
            if number && sizeNames.contains(name) { return "{{size}}" }
        case "offset"?:
            if number && offsetNames.contains(name) { return "{{offset}}" }
            if number && sizeNames.contains(name) { return "{{limit}}" }
        case "cursor"?:
            if number && sizeNames.contains(name) { return "{{limit}}" }
            if type == "string" && nextCursorNames.contains(name) { return "{{nextCursor}}" }
        default:
            break
        }
        return nil
    }

    /// Sets `key` of an object, in place when it is there, else at the end.
    static func set(_ object: inout JSONValue, _ key: String, _ value: JSONValue) {
        guard case .object(var members) = object else { return }
        if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value } else { members.append((key, value)) }
        object = .object(members)
    }
}
