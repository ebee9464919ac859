/// One way a request breaks its API contract: where (`$.body.password`, `$.query.page`,
/// `$.path.id`, `$.header.X-Version`) and what is wrong.
public struct ContractViolation: Sendable, Equatable {
    /// What kind of problem, for the status an enforced refusal gets.
    public enum Kind: Sendable, Equatable {
        /// A parameter, header, a missing or unreadable body (400).
        case request
        /// A body that parses but does not fit its schema (422).
        case bodySchema
        /// A body of a media type the operation does not accept (415).
        case mediaType
    }

    /// Where in the request.
    public let location: String
    /// What is wrong.
    public let problem: String
    /// What kind of problem.
    public let kind: Kind

    /// A violation.
    public init(location: String, problem: String, kind: Kind = .request) {
        self.location = location
        self.problem = problem
        self.kind = kind
    }

    /// The status an enforced refusal of `violations` gets: 415 for a media type the operation
    /// does not take, 422 when only the body's content is wrong, else 400.
    public static func status(of violations: [ContractViolation]) -> Int {
        if violations.contains(where: { $0.kind == .mediaType }) { return 415 }
        return violations.allSatisfy { $0.kind == .bodySchema } ? 422 : 400
    }
}

/// Checks requests to stubbed routes against an API contract (`serve --openapi`).
package protocol RequestContract: Sendable {
    /// The violations of `request` against the operation `route` stands for; nil when the contract
    /// has no such operation.
    func violations(of request: any RequestHead, route: Route) -> [ContractViolation]?
    /// Answer violating requests with 400 or 422 instead of the stub (`--openapi-enforce`).
    var enforces: Bool { get }
    /// Looks up the operation of each route once, before serving; returns warnings for people
    /// (routes the contract does not describe).
    func prepare(_ routes: [Route]) -> [String]
    /// The status an enforced refusal of `violations` on `route` gets.
    func refusalStatus(_ violations: [ContractViolation], route: Route) -> Int
    /// The `Content-Type` a refusal with `status` on `route` is sent as, when not plain JSON.
    func refusalMediaType(_ status: Int, route: Route) -> String?
    /// Another body for a refusal whose body (`refusal`) does not fit what the contract
    /// documents for `status` on `route`; nil keeps it. `message` is the problems in one line.
    func refusalBody(_ status: Int, route: Route, refusal: JSONValue, message: String) -> JSONValue?
}

extension RequestContract {
    /// `ContractViolation.status(of:)`, for a contract that knows no statuses of its own.
    package func refusalStatus(_ violations: [ContractViolation], route: Route) -> Int {
        ContractViolation.status(of: violations)
    }

    /// nil: plain JSON, for a contract that knows no media types of its own.
    package func refusalMediaType(_ status: Int, route: Route) -> String? { nil }

    /// nil: the refusal as made, for a contract that documents no bodies.
    package func refusalBody(_ status: Int, route: Route, refusal: JSONValue, message: String) -> JSONValue? { nil }
}
