#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

extension OpenAPIDocument {
    /// One operation (a method on a path).
    package struct Operation: Sendable {
        /// Upper-case method.
        package let method: String
        /// The path as the document writes it (`/users/{id}`), without the base path or a query.
        package let path: String
        /// Query parameters written into the path key (`/items?beta=true`), which some documents
        /// use to tell two operations on one path apart.
        package let query: [(name: String, value: String)]
        /// What follows `#` in the path key (`/metadata_templates/schema#classifications`): some
        /// documents write two operations on one path so. No request carries it (a fragment is
        /// never sent), so nothing in a request tells such an operation apart.
        package var fragment: String? = nil
        /// `operationId`, if any.
        package let operationID: String?
        /// Parameters (path-level ones merged in), resolved.
        package let parameters: [Parameter]
        /// The request body's schema for each media type the operation accepts, in document order.
        package let requestBodies: [RequestBody]
        /// True when the request must have a body.
        package let bodyRequired: Bool
        /// Responses by status key (`200`, `4XX`, `default`), in document order.
        package var responses: [Response]
        /// Where the operation is written: `/paths/~1users/get`.
        package let pointer: String
        /// The remote refs (with no local copy) its parameters or request bodies use, each
        /// described with where it stands; such an operation is not imported, and its requests
        /// are not checked. Responses list their own.
        package var remoteRefs: [String] = []

        /// `GET /users/{id}` (with the query and fragment of the path key, if any).
        package var name: String {
            "\(method) \(path)\(query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))\(fragment.map { "#" + $0 } ?? "")"
        }
    }

    /// A request body for one media type.
    package struct RequestBody: Sendable {
        /// `application/json`, `application/x-www-form-urlencoded`, `multipart/form-data` …
        package let mediaType: String
        /// Its schema, if the document gives one.
        package let schema: JSONValue?

        /// How stubd reads such a body.
        package var kind: BodyKind { BodyKind(mediaType: mediaType) }
    }

    /// How a body of a media type is read for checking.
    package enum BodyKind: Sendable {
        /// JSON (`application/json`, `application/problem+json`, `*/*`).
        case json
        /// `application/x-www-form-urlencoded`.
        case form
        /// `multipart/form-data`: field names only.
        case multipart
        /// Anything else: not checked.
        case other

        /// The kind of `mediaType` (parameters such as `; charset=utf-8` ignored).
        package init(mediaType: String) {
            let type = mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
            if type.hasSuffix("/json") || type.hasSuffix("+json") || type == "*/*" || type == "application/*" { self = .json }
            else if type == "application/x-www-form-urlencoded" { self = .form }
            else if type == "multipart/form-data" { self = .multipart }
            else { self = .other }
        }
    }

    /// A parameter in the path, the query or a header.
    package struct Parameter: Sendable {
        /// The parameter's name.
        package let name: String
        /// `path`, `query`, `header` or `cookie`.
        package let location: String
        /// True when the request must carry it (path parameters always).
        package let required: Bool
        /// Its schema, if any.
        package let schema: JSONValue?
    }

    /// A documented response.
    package struct Response: Sendable {
        /// `200`, `4XX` or `default`.
        package let status: String
        /// What the document says of it.
        package let description: String
        /// The JSON media type of its body, if it has one.
        package let mediaType: String?
        /// The JSON body's schema, if it has one.
        package let schema: JSONValue?
        /// The document's own examples of the JSON body, in order.
        package let examples: [Example]
        /// The remote refs (with no local copy) it uses, described; such a response is not
        /// imported, and bodies for it are not checked.
        package var remoteRefs: [String] = []
        /// Every media type the document lists for its body (`content` keys, or Swagger's
        /// `produces`), in order: what a served `Content-Type` is compared with.
        package var mediaTypes: [String] = []
        /// The media type of a body that is not JSON (`text/plain`, `image/png` …), when the
        /// response documents no JSON one.
        package var otherMediaType: String? = nil
        /// The document's example of that body, when it gives one as a string.
        package var otherExample: String? = nil

        /// The first example that could be read.
        package var example: JSONValue? { examples.lazy.compactMap(\.value).first }
    }

    /// An example the document gives.
    package struct Example: Sendable {
        /// Where: `/paths/~1users/get/responses/200/content/application~1json/examples/full`.
        package let pointer: String
        /// The value, or nil when the example refers to a file or place that cannot be read.
        package let value: JSONValue?
    }
}
