import Foundation

extension StubdClient {
    /// The faults stubd serves (the same list as the server's `Fault`; a test keeps them equal).
    public enum Fault: String, Sendable, CaseIterable {
        /// The connection is reset (`URLError.networkConnectionLost`).
        case reset
        /// The connection closes with no bytes (`URLError.badServerResponse`).
        case empty
        /// Bytes that are not HTTP.
        case garbage
        /// Half the body, then close.
        case truncate
        /// Nothing, until the client gives up (`URLError.timedOut`).
        case hang
        /// The head a few bytes at a time over the delay, then the body: slow but whole, or
        /// `URLError.timedOut` when a gap outlasts the request's timeout.
        case slowHeaders = "slow-headers"
        /// HTTP/2: this stream alone is reset (RST_STREAM CANCEL) before its head; over HTTP/1.1, as `reset`.
        case rstStream = "rst-stream"
        /// HTTP/2: the answer, then GOAWAY naming this stream the last; the next request opens a new connection.
        case goaway
        /// HTTP/2: GOAWAY(INTERNAL_ERROR) and the connection closes; over HTTP/1.1, as `reset`.
        case goawayAbrupt = "goaway-abrupt"
    }

    /// `GET /__stubd/health`.
    public struct Health: Decodable, Sendable {
        /// What the server says of its stubs (the same list as the server's `HealthReport.Status`;
        /// a test keeps them equal).
        public enum Status: String, Decodable, Sendable, CaseIterable {
            /// The last load succeeded.
            case ok
            /// The last reload failed; the stubs loaded before it are still served.
            case degraded
        }

        /// `.ok`, or `.degraded` after a failed reload.
        public let status: Status
        /// Routes served.
        public let routes: Int
        /// The problems of the last failed reload.
        public let errors: [String]?
    }

    /// One route of `GET /__stubd/routes`.
    public struct RouteInfo: Decodable, Sendable {
        /// `service/folder`.
        public let id: String
        /// The HTTP method.
        public let method: String
        /// The full path template.
        public let path: String
        /// The default variant's name.
        public let `default`: String
        /// The variants, in file order.
        public let variants: [Variant]
        /// Requests held now by a `hold` (in the session asked about).
        public let held: Int?

        /// One variant of a route.
        public struct Variant: Decodable, Sendable {
            /// Its name (`200`, `404-missing`).
            public let name: String
            /// Its status; nil for a fault-only variant.
            public let status: Int?
        }
    }

    /// One journal entry: what stubd received and what it answered.
    public struct ReceivedRequest: Decodable, Sendable {
        /// The entry's id, increasing.
        public let id: Int
        /// The method.
        public let method: String
        /// The path as sent (without a `/__session/<id>` prefix).
        public let path: String
        /// Query parameters; a name sent more than once has every value.
        public let query: [String: [String]]
        /// Headers, first value of each.
        public let headers: [String: String]
        /// The body as text (`bodyEncoding` `utf8`) or base64.
        public let body: String
        /// The matched route's id.
        public let route: String?
        /// For a request to a GraphQL endpoint: the operation it named.
        public let operation: String?
        /// The variant served.
        public let variant: String?
        /// The status sent; 0 for a fault.
        public let status: Int
        /// The session the request named.
        public let session: String?
        /// `http` or `https`.
        public let scheme: String?
        /// The HTTP version the request came in: `HTTP/1.0` or `HTTP/1.1`; nil from a stubd that
        /// does not say.
        public let httpVersion: String?
        /// True when the answer came from the `--proxy-unmatched` upstream.
        public let proxied: Bool
        /// How the request broke the OpenAPI contract (`serve --openapi`); nil when not checked.
        public let contract: [ContractProblem]?
        /// For a streamed body: the events sent.
        public let eventsSent: Int?

        /// One way a request broke its API contract.
        public struct ContractProblem: Decodable, Sendable, Equatable {
            /// Where: `$.body.password`, `$.query.page`, `$.path.id`, `$.header.X-Version`.
            public let `where`: String
            /// What is wrong.
            public let problem: String
        }

        enum CodingKeys: String, CodingKey {
            case id, method, path, query, headers, body, route, operation, variant, status, session, scheme, httpVersion, proxied, contract, eventsSent
        }

        /// Reads an entry; a query value is a string, or an array where the name repeated.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            method = try c.decode(String.self, forKey: .method)
            path = try c.decode(String.self, forKey: .path)
            headers = try c.decode([String: String].self, forKey: .headers)
            body = try c.decode(String.self, forKey: .body)
            route = try c.decodeIfPresent(String.self, forKey: .route)
            operation = try c.decodeIfPresent(String.self, forKey: .operation)
            variant = try c.decodeIfPresent(String.self, forKey: .variant)
            status = try c.decode(Int.self, forKey: .status)
            session = try c.decodeIfPresent(String.self, forKey: .session)
            scheme = try c.decodeIfPresent(String.self, forKey: .scheme)
            httpVersion = try c.decodeIfPresent(String.self, forKey: .httpVersion)
            proxied = try c.decodeIfPresent(Bool.self, forKey: .proxied) ?? false
            contract = try c.decodeIfPresent([ContractProblem].self, forKey: .contract)
            eventsSent = try c.decodeIfPresent(Int.self, forKey: .eventsSent)
            query = try c.decode([String: QueryValue].self, forKey: .query).mapValues(\.values)
        }

        /// The first value of a query parameter.
        public func queryValue(_ name: String) -> String? { query[name]?.first }
    }

    struct QueryValue: Decodable {
        let values: [String]
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let many = try? c.decode([String].self) { values = many } else { values = [try c.decode(String.self)] }
        }
    }

    struct RouteList: Decodable { let routes: [RouteInfo] }
    struct Count: Decodable { let count: Int }
    struct Journal: Decodable { let requests: [ReceivedRequest] }
}
