/// Waiting on something outside the request before it can be answered: an admin hold's release,
/// or the fleet store's sequence step. Either way the request keeps its body and is planned
/// again when the wait ends.
extension RequestLifecycle {
    /// Starts on a fresh plan: a hold or a wait for the store's sequence step (the request keeps
    /// its body: it is planned again afterwards), else the plan itself.
    mutating func planned(_ plan: consuming ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment,
                          now: UInt64) -> LifecycleAction {
        if let token = plan.stepToken {
            self.plan = plan
            let box = StepBox()
            phase = .awaitingStep(token: token, box: box)
            let control = env.responder.control
            return .suspendFor(until: now &+ LifecycleEnvironment.stepWaitNs) { resume in
                control.takeStep(token: token) { step in
                    box.deliver(step)
                    resume()
                }
            }
        }
        if plan.awaitsMemory, let memory = env.responder.planner.memory, let catalog = plan.catalog {
            self.plan = plan
            let box = PlanBox()
            phase = .awaitingMemory(box)
            // A whole copy (control parameters too): the plan is made again from it on the store's thread.
            let copy = StubRequest(method: request.method, path: request.path, query: request.allQueryParameters(),
                                   headers: request.allHeaders(), body: request.body, scheme: request.scheme)
            let responder = env.responder, released = releasedAt != nil
            return .suspendFor(until: now &+ LifecycleEnvironment.stepWaitNs) { resume in
                memory.store.perform {
                    box.deliver(responder.respond(to: copy, catalog: catalog, releasedFromHold: released))
                    resume()
                }
            }
        }
        guard plan.hold, plan.routeID != nil else { return proceed(plan, request, env, now: now) }
        self.plan = plan
        let until = request.startNs &+ env.holdCapNs
        phase = .held(until: until, ticket: nil)
        return .suspend(until: until)
    }

    /// A held request runs again: released, it is planned afresh; woken by the hold cap or a
    /// stop, it gets a 503 saying so; its client gone, it ends.
    mutating func releasedFromHold(_ request: some LifecycleRequest, catalog: StubCatalog, _ env: LifecycleEnvironment,
                                   ticket: UInt64?, now: UInt64, stopping: Bool, clientGone: Bool) -> LifecycleAction {
        let stillHeld = ticket.map { env.responder.control.holdEnded(ticket: $0) } ?? true
        if clientGone { return end(request, env, now: now, status: 0, fault: nil, clientGone: true) }
        if stillHeld || stopping {
            let reply = Reply.error(503, "held response not released", [
                ("route", plan?.routeID.map(JSONValue.string) ?? .null),
                ("reason", .string(stopping ? "the server is stopping" : "the hold cap passed")),
            ])
            guard var plan else { return .close }
            plan.status = 503
            return answer(reply, plan, request, env, now: now)
        }
        releasedAt = now
        return planned(env.responder.respond(to: request, catalog: catalog, releasedFromHold: true), request, env, now: now)
    }

    /// True while the request waits (delayed, held, hanging, deferred, trickling its head): if
    /// its connection ends now, that is journaled with the time it ended.
    package var isWaiting: Bool {
        switch phase {
        case .delayed, .hanging, .held, .deferred, .awaitingStep, .awaitingMemory, .slowHeaders: return true
        case .receiving, .streaming, .throttling, .truncating, .live, .done: return false
        }
    }

    /// The connection ended (answered, or closed under a waiting request). A request that was
    /// still waiting is journaled as one whose client left, and a hold lets it go.
    package mutating func connectionEnded(_ request: some LifecycleRequest, env: LifecycleEnvironment, now: UInt64) {
        switch phase {
        case .held(_, let ticket):
            if let ticket { _ = env.responder.control.holdEnded(ticket: ticket) }
            _ = end(request, env, now: now, status: 0, fault: nil, clientGone: true)
        case .delayed, .deferred, .awaitingStep, .awaitingMemory:
            _ = end(request, env, now: now, status: 0, fault: nil, clientGone: true)
        case .hanging:
            _ = end(request, env, now: now, status: 0, fault: .hang, clientGone: true)
        case .slowHeaders:
            _ = end(request, env, now: now, status: 0, fault: .slowHeaders, clientGone: true)
        case .live(let cursor):
            cursor.live.feed.close(cursor.live.reader)
            phase = .done
        case .receiving, .streaming, .throttling, .truncating, .done:
            break
        }
    }
}
