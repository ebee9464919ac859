/// Planning a route that remembers: its request view reads state, and once a variant is chosen
/// its `then` changes are stored and a collection answers from the store. Reached only through
/// `Route.memory`; every other route plans as before.
extension ResponsePlanner {
    /// The view's memory for a route that remembers, in the request's scope.
    func attachMemory(_ view: inout RequestView, route: Route, routeMemory: RouteMemory, memory: StubMemory, session: String?, catalog: StubCatalog) {
        let requestSeed = view.header(Limits.seedHeader).flatMap { UInt64($0) }
        memory.touch(Scope(session))
        view.memory = MemoryView(memory: memory, scope: Scope(session), service: routeMemory.service,
                                 seed: catalog.memory.stateSeed(routeMemory.service), routeID: route.id, requestSeed: requestSeed)
    }

    /// Stores the chosen variant's changes and makes a collection's answer; a store that fails
    /// gives 503, a change refused (too large, a state name rendered empty) its 4xx.
    func remember(_ plan: inout ResponsePlan, route: Route, routeMemory: RouteMemory, variant: Variant, view: inout RequestView) {
        guard plan.fault == nil, let memoryView = view.memory else { return }
        // A request the API contract refuses changes nothing (the contract's 422 follows).
        if let contract, contract.enforces, let violations = contract.violations(of: view.head, route: route), !violations.isEmpty { return }
        let memory = memoryView.memory
        var changed: [String] = []
        do {
            if let changes = variant.memory?.changes {
                switch changes.rendered(&view) {
                case .failure(let bad):
                    return refuse(&plan, Reply.error(400, "a state name has a placeholder this request gives no value for", [("name", .string(bad.template)), ("route", .string(route.id))]))
                case .success(let list):
                    switch try memory.apply(list, service: routeMemory.service, scope: memoryView.scope, seed: memoryView.seed) {
                    case .failure(let refusal): return refuse(&plan, memory.refusal(refusal.status, refusal.title, refusal.message, route.errorEnvelope))
                    case .success(let names): changed += names.map { "state \($0)" }
                    }
                    memoryView.forget()
                    // The body is rendered after the change, so it shows the new values.
                    if let template = variant.template { plan.renderedBody = template.render(&view) }
                }
            }
            if let (spec, action) = routeMemory.collection, variant.name == RouteMemory.collectionVariant {
                let (reply, change) = try memory.answer(action, spec, &view, memory: memoryView, envelope: route.errorEnvelope)
                plan.response = .reply(reply)
                plan.status = reply.status
                if let change { changed.append(change) }
            }
        } catch {
            return refuse(&plan, Reply.error(503, "the state store did not answer", [("reason", .string(error.message))]))
        }
        if let failure = memoryView.failure {
            return refuse(&plan, Reply.error(503, "the state store did not answer", [("reason", .string(failure.message))]))
        }
        if !changed.isEmpty { plan.memoryChanges = changed }
        if let templated = variant.memory?.headers, !templated.isEmpty, case .variant = plan.response {
            var headers = variant.headers
            for (name, template) in templated { headers.set(name, String(decoding: template.render(&view), as: UTF8.self)) }
            plan.response = .reply(Reply(status: plan.status, headers: headers, body: plan.renderedBody ?? variant.body))
        }
    }

    private func refuse(_ plan: inout ResponsePlan, _ reply: Reply) {
        plan.response = .reply(reply)
        plan.status = reply.status
        plan.stream = nil
    }
}
