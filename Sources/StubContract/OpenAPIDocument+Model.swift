#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

extension OpenAPIDocument {
    /// One operation (a method on a path).
    public struct Operation: Sendable {
        /// Upper-case method.
        public let method: String
        /// The path as the document writes it (`/users/{id}`), without the base path or a query.
        public let path: String
        /// Query parameters written into the path key (`/items?beta=true`), which some documents
        /// use to tell two operations on one path apart.
        public let query: [(name: String, value: String)]
        /// `operationId`, if any.
        public let operationID: String?
        /// Parameters (path-level ones merged in), resolved.
        public let parameters: [Parameter]
        /// The request body's schema for each media type the operation accepts, in document order.
        public let requestBodies: [RequestBody]
        /// True when the request must have a body.
        public let bodyRequired: Bool
        /// Responses by status key (`200`, `4XX`, `default`), in document order.
        public let responses: [Response]
        /// Where the operation is written: `/paths/~1users/get`.
        public let pointer: String

        /// `GET /users/{id}` (with the query of the path key, if any).
        public var name: String { "\(method) \(path)\(query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))" }
    }

    /// A request body for one media type.
    public struct RequestBody: Sendable {
        /// `application/json`, `application/x-www-form-urlencoded`, `multipart/form-data` …
        public let mediaType: String
        /// Its schema, if the document gives one.
        public let schema: JSONValue?

        /// How stubd reads such a body.
        public var kind: BodyKind { BodyKind(mediaType: mediaType) }
    }

    /// How a body of a media type is read for checking.
    public enum BodyKind: Sendable {
        /// JSON (`application/json`, `application/problem+json`, `*/*`).
        case json
        /// `application/x-www-form-urlencoded`.
        case form
        /// `multipart/form-data`: field names only.
        case multipart
        /// Anything else: not checked.
        case other

        /// The kind of `mediaType` (parameters such as `; charset=utf-8` ignored).
        public init(mediaType: String) {
            let type = mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
            if type.hasSuffix("/json") || type.hasSuffix("+json") || type == "*/*" || type == "application/*" { self = .json }
            else if type == "application/x-www-form-urlencoded" { self = .form }
            else if type == "multipart/form-data" { self = .multipart }
            else { self = .other }
        }
    }

    /// A parameter in the path, the query or a header.
    public struct Parameter: Sendable {
        /// The parameter's name.
        public let name: String
        /// `path`, `query`, `header` or `cookie`.
        public let location: String
        /// True when the request must carry it (path parameters always).
        public let required: Bool
        /// Its schema, if any.
        public let schema: JSONValue?
    }

    /// A documented response.
    public struct Response: Sendable {
        /// `200`, `4XX` or `default`.
        public let status: String
        /// What the document says of it.
        public let description: String
        /// The JSON media type of its body, if it has one.
        public let mediaType: String?
        /// The JSON body's schema, if it has one.
        public let schema: JSONValue?
        /// The document's own examples of the JSON body, in order.
        public let examples: [Example]

        /// The first example that could be read.
        public var example: JSONValue? { examples.lazy.compactMap(\.value).first }
    }

    /// An example the document gives.
    public struct Example: Sendable {
        /// Where: `/paths/~1users/get/responses/200/content/application~1json/examples/full`.
        public let pointer: String
        /// The value, or nil when the example refers to a file or place that cannot be read.
        public let value: JSONValue?
    }
}
