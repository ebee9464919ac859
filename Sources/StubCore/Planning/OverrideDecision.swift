/// What an admin override says for one request to a route.
package struct OverrideDecision: Sendable {
    /// A variant to serve, from a sticky override or a sequence step.
    package var variant: String?
    /// True when `variant` is a sequence step.
    package var fromSequence: Bool
    /// Which step of how many, for a sequence step (1-based), so the journal can say so.
    package var sequenceStep: (step: Int, of: Int)?
    /// A delay that beats the stub files.
    package var delay: DelaySpec?
    /// A fault that beats the stub files.
    package var fault: Fault?
    /// A body rate that beats the stub files.
    package var throttleBytesPerSecond: Int?
    /// Hold the request until the test releases it; nothing else is decided yet.
    package var hold = false
    /// The next sequence step is the fleet store's to hand out (under this token): nothing else
    /// is decided yet; the request waits for the step, then asks again (`StepAnswer`).
    package var stepToken: String?

    /// Makes a decision.
    package init(variant: String? = nil, fromSequence: Bool = false, delay: DelaySpec? = nil, fault: Fault? = nil,
                throttleBytesPerSecond: Int? = nil) {
        self.variant = variant
        self.fromSequence = fromSequence
        self.delay = delay
        self.fault = fault
        self.throttleBytesPerSecond = throttleBytesPerSecond
    }
}

/// Where the planner asks for admin overrides; asking may advance a sequence. A class, so the
/// planner passes it along as one reference (a struct's existential is copied through its value
/// witnesses at every step of every request).
package protocol OverrideSource: AnyObject, Sendable {
    /// The override for the next request to `routeID` in `session` (nil = global scope);
    /// `advance` is false when the request picked its own variant, so no sequence step is used.
    /// With `honorHold`, a held route's decision is only `hold` (no step used); a request
    /// released from a hold asks again without it.
    func decision(forRoute routeID: String, session: String?, advance: Bool, honorHold: Bool) -> OverrideDecision?
}

extension OverrideSource {
    /// The decision for a request that is not held (a release, or a caller that never holds).
    package func decision(forRoute routeID: String, session: String?, advance: Bool) -> OverrideDecision? {
        decision(forRoute: routeID, session: session, advance: advance, honorHold: false)
    }
}
