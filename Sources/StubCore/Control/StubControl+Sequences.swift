/// What the planner asks of the overrides: the next sequence step, else the sticky override.
/// In a fleet the store hands out each step once across the replicas; asking it is a network
/// call, so a request that needs a step waits for it suspended (`takeStep`), never on the thread
/// that serves requests, and is then planned again with the step it got (`StepAnswer`).
extension StubControl {
    /// For the planner: the next sequence step, else the sticky override. Advances the sequence
    /// only when `advance` is true (a request that picks its own variant does not use up a step).
    package func decision(forRoute routeID: String, session: String?, advance: Bool, honorHold: Bool) -> OverrideDecision? {
        decision(forRoute: routeID, session: session, advance: advance, honorHold: honorHold, taken: nil)
    }

    /// The decision, with the step the store handed out for this request when it has one.
    func decision(forRoute routeID: String, session: String?, advance: Bool, honorHold: Bool, taken: TakenStep?) -> OverrideDecision? {
        // Most requests come with no override anywhere: one atomic read instead of the lock.
        guard mayHaveOverrides.load(ordering: .acquiring) else { return nil }
        return state.withLock { s -> OverrideDecision? in
            // Most requests come with no override anywhere: skip hashing the session and route.
            guard !s.overrides.isEmpty else { return nil }
            let key = Scope(session)
            // A session's state counts as used (and may turn out expired) only when it has some.
            if s.overrides[key] != nil {
                s.touch(key, now: clock(), inStore: shared?.isReachable ?? false)
                if let shared, case .session(let name) = key { shared.touched(session: name) }
            }
            guard var o = s.overrides[key]?[routeID] else { return nil }
            if o.hold && honorHold {
                var held = OverrideDecision()
                held.hold = true
                return held
            }
            var decision = OverrideDecision(variant: o.variant, delay: o.delay, fault: o.fault, throttleBytesPerSecond: o.throttleBytesPerSecond)
            guard advance && o.served < o.sequence.count else { return decision }
            let step: Int
            if let token = o.stepToken, let taken, taken.token == token {
                // Nil: the store went away meanwhile; the step is then taken from the local count.
                step = taken.step ?? o.served + 1
            } else if let token = o.stepToken, shared?.isReachable == true {
                var waiting = OverrideDecision()
                waiting.stepToken = token
                return waiting
            } else {
                step = o.served + 1
            }
            guard step <= o.sequence.count else {
                // Played out across the fleet: no more asking the store for this one.
                o.served = o.sequence.count
                s.overrides[key]?[routeID] = o
                return decision
            }
            o.served = max(o.served, step)
            s.overrides[key]?[routeID] = o
            decision.variant = o.sequence[step - 1]
            decision.fromSequence = true
            decision.sequenceStep = (step, o.sequence.count)
            return decision
        }
    }

    /// Asks the fleet's store for the next step of the sequence under `token`, off the calling
    /// thread; `then` gets it (nil when the store did not answer), on the store's thread. Without
    /// a store, `then` runs at once with nil.
    package func takeStep(token: String, then: @escaping @Sendable (Int?) -> Void) {
        guard let shared else { return then(nil) }
        shared.takeStep(token: token, then: then)
    }

    /// A random token naming one sequence's step counter in the fleet's store.
    static func newToken() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }
}

/// The step the store handed out to one request for the sequence under `token` (nil: it did not
/// answer).
package struct TakenStep: Sendable {
    package let token: String
    package let step: Int?

    package init(token: String, step: Int?) {
        self.token = token
        self.step = step
    }
}

/// The overrides as one request sees them on its second pass, with the step it was handed.
final class StepAnswer: OverrideSource {
    let control: StubControl
    let taken: TakenStep

    init(control: StubControl, taken: TakenStep) {
        self.control = control
        self.taken = taken
    }

    func decision(forRoute routeID: String, session: String?, advance: Bool, honorHold: Bool) -> OverrideDecision? {
        control.decision(forRoute: routeID, session: session, advance: advance, honorHold: honorHold, taken: taken)
    }
}
