/// A route declared a collection (`"collection"` in route.json): JSON objects seeded from a file,
/// answered with list, create, get, replace, update (JSON Merge Patch) and delete. One spec is
/// shared by the six routes it makes (`CollectionAction`).
package final class CollectionSpec: Sendable {
    /// How new objects get their ids.
    package enum IDKind: String, Sendable {
        /// One more than the largest so far.
        case integer
        /// A version 4 UUID from the seeded generator.
        case uuid
    }

    /// The route folder (`app/todos`): the collection's name in the admin API and the store.
    package let id: String
    /// The service ("" outside one), whose error envelope the collection's errors use.
    package let service: String
    /// The list's full path (`/api/v1/users/{userId}/posts`).
    package let path: String
    /// The id field of each object.
    package let idField: String
    /// The item path's parameter (`{id}` after the list path).
    package let idParameter: String
    package let ids: IDKind
    /// The list path's parameters: each filters the list and is stamped on new objects.
    package let parents: [String]
    package let paging: CollectionPaging
    /// The query parameter naming the sort field (`-name` descends); nil: no sorting.
    package let sortParameter: String?
    /// The list answer's template; nil sends the bare array.
    package let list: JSONValue?
    /// The seed's objects by id, each with its place in the file.
    package let seed: [String: StoredField]
    /// The seed in file order.
    package let seedInOrder: [StoredField]
    /// The largest integer id in the seed (0 without one): generated ids start past it.
    package let seedMaxID: Int

    /// A spec; `seed` is in file order and every object has its id (the loader checked).
    package init(id: String, service: String, path: String, idField: String, idParameter: String, ids: IDKind, parents: [String],
                 paging: CollectionPaging, sortParameter: String?, list: JSONValue?, seed: [JSONValue]) {
        self.id = id
        self.service = service
        self.path = path
        self.idField = idField
        self.idParameter = idParameter
        self.ids = ids
        self.parents = parents
        self.paging = paging
        self.sortParameter = sortParameter
        self.list = list
        var byID: [String: StoredField] = [:]
        var ordered: [StoredField] = []
        var maxID = 0
        for (i, object) in seed.enumerated() {
            guard let key = object[idField].flatMap(CollectionSpec.key) else { continue }
            let field = StoredField(order: i + 1, value: object)
            byID[key] = field
            ordered.append(field)
            if let n = Int(key) { maxID = max(maxID, n) }
        }
        self.seed = byID
        seedInOrder = ordered
        seedMaxID = maxID
    }

    /// The store key of an id value: its text (`42`, `"a1"` → `a1`); nil for an id that is not a
    /// string or a whole number.
    package static func key(_ id: JSONValue) -> String? {
        switch id {
        case .string(let s): return s.isEmpty ? nil : s
        case .number(let n) where n.isInteger: return id.scalarText
        default: return nil
        }
    }

    /// The space the collection's objects are stored in.
    var space: MemorySpace { .collection(id) }
}

/// How a collection's list is paged, in the API's own style.
package struct CollectionPaging: Sendable, Equatable {
    /// The style.
    package enum Style: String, Sendable {
        /// `?page=2&per_page=20`, pages from 1.
        case page
        /// `?offset=40&limit=20`.
        case offset
        /// `?cursor=…&limit=20`; the cursor is opaque, the list gives the next one.
        case cursor
        /// The whole list.
        case none
    }

    package var style: Style = .none
    /// The page, offset or cursor parameter.
    package var position = "page"
    /// The page size or limit parameter.
    package var size = "per_page"
    package var defaultSize = 20
    package var maxSize = 100

    /// No paging.
    package init() {}

    /// Parameter names the style reads (never filters).
    var parameters: [String] { style == .none ? [] : [position, size] }
}

/// What one route of a collection does, by method and path.
package enum CollectionAction: String, Sendable, CaseIterable {
    case list, create, get, replace, update, delete

    /// The method it answers.
    package var method: String {
        switch self {
        case .list, .get: return "GET"
        case .create: return "POST"
        case .replace: return "PUT"
        case .update: return "PATCH"
        case .delete: return "DELETE"
        }
    }

    /// True for the actions on one object (`/todos/{id}`).
    package var onItem: Bool { self != .list && self != .create }
}
