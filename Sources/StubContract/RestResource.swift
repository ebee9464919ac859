import StubCore

/// A REST resource of a document, which `import-openapi --collections` writes as one collection:
/// a list path (`/pets`, `/users/{userId}/posts`) with a list (`GET`) and/or a create (`POST`),
/// and its item path (one more segment, a lone parameter) with a `GET` and a `PUT`, `PATCH` or
/// `DELETE`.
struct RestResource {
    /// How the list operation answers: a bare array, or an object holding it.
    enum ListShape {
        /// A JSON array of the objects (also when the document says nothing of the shape).
        case array
        /// An object with the array in `property`; `schema` is the object's schema, `allOf`
        /// merged (nil when only the document's examples show the shape).
        case envelope(property: String, schema: JSONValue?)
    }

    /// The list path as the document writes it.
    let path: String
    /// The item path as the document writes it.
    let itemPath: String
    /// The operations the document has, by the collection action they stand for.
    let list, create, get, replace, update, delete: OpenAPIDocument.Operation?
    /// The indices of the importer's operation groups the collection takes the place of.
    let groups: [Int]
    /// The id field of the objects.
    let id: String
    /// How the collection makes ids for created objects: `integer` or `uuid`.
    let ids: String
    /// The item's schema as the document writes it (for a seed object made from it), if any.
    let itemSchema: JSONValue?
    /// Where the item's schema is written, for warnings: `/paths/~1pets~1{petId}/get/responses/200`.
    let itemPointer: String
    /// The list answer's shape.
    let listShape: ListShape
    /// The objects of the document's examples of the list and item answers, in that order
    /// (duplicates and objects without the id field still in).
    let examples: [JSONValue]

    /// The operations in collection-action order: list, create, get, replace, update, delete.
    var operations: [OpenAPIDocument.Operation] { [list, create, get, replace, update, delete].compactMap { $0 } }

    /// `GET, POST /pets and GET, PUT, DELETE /pets/{petId}`.
    var description: String {
        let outer = [list, create].compactMap { $0?.method }
        let inner = [get, replace, update, delete].compactMap { $0?.method }
        return (outer.isEmpty ? "" : "\(outer.joined(separator: ", ")) \(path) and ") + "\(inner.joined(separator: ", ")) \(itemPath)"
    }
}
