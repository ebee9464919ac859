/// One way a request breaks its API contract: where (`$.body.password`, `$.query.page`,
/// `$.path.id`, `$.header.X-Version`) and what is wrong.
public struct ContractViolation: Sendable, Equatable {
    /// Where in the request.
    public let location: String
    /// What is wrong.
    public let problem: String

    /// A violation.
    public init(location: String, problem: String) {
        self.location = location
        self.problem = problem
    }

    /// True for a request body that does not fit its schema (answered 422 when enforced).
    public var isBodySchema: Bool { location.hasPrefix("$.body") && !problem.hasPrefix("missing request body") && !problem.hasPrefix("not valid") }
}

/// Checks requests to stubbed routes against an API contract (`serve --openapi`).
package protocol RequestContract: Sendable {
    /// The violations of `request` against the operation `route` stands for; nil when the contract
    /// has no such operation.
    func violations(of request: any RequestHead, route: Route) -> [ContractViolation]?
    /// Answer violating requests with 400 or 422 instead of the stub (`--openapi-enforce`).
    var enforces: Bool { get }
}
