import CMicroHTTPD
import StubCore
import Synchronization

/// Turns libmicrohttpd requests into plans from the core and carries them out: queue a prepared
/// response, suspend for a delay, or inject a fault. Shared by all MHD threads.
final class RequestBridge: @unchecked Sendable {
    let store: CatalogStore
    let planner: ResponsePlanner
    let scheduler: DelayScheduler
    let log: AccessLog
    let hangCapNs: UInt64
    /// Overrides, sequences and the journal.
    let control: StubControl
    /// Answers `/__stubd/` requests; nil when the admin API is off.
    let admin: AdminAPI?

    /// Set when the server stops: no new suspends, suspended connections close. A lock, not an
    /// atomic: checking it and suspending must be one step, or a connection could be suspended
    /// after the drain and make MHD_stop_daemon abort.
    let stopping = Locked(false)
    /// Connections suspended and not yet handled after resume; MHD_stop_daemon aborts unless 0.
    let suspended = Atomic<Int>(0)

    init(store: CatalogStore, planner: ResponsePlanner, log: AccessLog, hangCapMs: Int, control: StubControl, admin: AdminAPI?) {
        self.store = store
        self.control = control
        self.admin = admin
        self.planner = planner
        self.scheduler = DelayScheduler()
        self.log = log
        self.hangCapNs = UInt64(max(0, min(hangCapMs, StubServerConfiguration.maxDurationMs))) * 1_000_000
    }

    func handle(_ connection: ConnectionHandle, _ context: RequestContext, method: String, path: String) -> MHD_Result {
        switch context.phase {
        case .receiving:
            return plan(connection, context, method: method, path: path)
        case .delayed:
            markResumed(context)
            return finish(connection, context)
        case .hanging:
            markResumed(context)
            record(context, fault: .hang)
            return .NO
        }
    }

    private func plan(_ connection: ConnectionHandle, _ context: RequestContext, method: String, path: String) -> MHD_Result {
        var request = StubRequest(
            method: method, path: path,
            query: PairCollector.read(connection, kind: .GET_ARGUMENT_KIND),
            headers: PairCollector.read(connection, kind: .HEADER_KIND),
            body: context.body)
        let session = request.header("X-Stub-Session")
        context.session = session
        if let admin, path.hasPrefix(AdminPaths.prefix) {
            context.request = request
            context.plan = .reply(admin.handle(request, session: session))
            return send(connection, context)
        }
        let prepared = store.current
        let plan = planner.plan(&request, catalog: prepared.catalog, overrides: control, session: session)
        context.request = request
        context.plan = plan
        context.prepared = prepared
        context.delayMs = plan.delayMs
        if plan.fault == Fault.hang || plan.delayMs > 0 {
            let didSuspend = stopping.withLock { stopping -> Bool in
                guard !stopping else { return false }
                suspended.add(1, ordering: .relaxed)
                context.isSuspended = true
                MHD_suspend_connection(connection.pointer)
                return true
            }
            guard didSuspend else { return .NO }
            context.phase = plan.fault == Fault.hang ? .hanging : .delayed
            // Scheduled after the suspend: the timer thread may resume at once.
            let delayNs = UInt64(plan.delayMs) * 1_000_000
            scheduler.schedule(connection, at: context.startNs + delayNs + (plan.fault == Fault.hang ? hangCapNs : 0))
            return .YES
        }
        return finish(connection, context)
    }

    /// Counts a suspended connection as handled; called on resume or when MHD frees it.
    func markResumed(_ context: RequestContext) {
        guard context.isSuspended else { return }
        context.isSuspended = false
        suspended.subtract(1, ordering: .relaxed)
    }

    private func finish(_ connection: ConnectionHandle, _ context: RequestContext) -> MHD_Result {
        guard let plan = context.plan else { return .NO }
        if let fault = plan.fault {
            var variant: Variant?
            if case .variant(let r, let v) = plan.response, let prepared = context.prepared {
                variant = prepared.catalog.routes[r].variants[v]
            }
            FaultInjector.inject(fault, on: connection, status: variant?.status ?? 200, headers: variant?.headers ?? [],
                                 body: plan.renderedBody ?? variant?.body ?? [])
            record(context, fault: fault)
            return .NO
        }
        if context.phase != .receiving && stopping.withLock({ $0 }) { return .NO }
        return send(connection, context)
    }

    private func send(_ connection: ConnectionHandle, _ context: RequestContext) -> MHD_Result {
        guard let plan = context.plan else { return .NO }
        let result: MHD_Result
        switch plan.response {
        case .variant(let r, let v):
            guard let prepared = context.prepared else { return .NO }
            let variant = prepared.catalog.routes[r].variants[v]
            if let rate = plan.throttleBytesPerSecond {
                let throttled = ThrottledBody(body: plan.renderedBody ?? variant.body, bytesPerSecond: rate, connection: connection, bridge: self)
                guard let response = throttled.makeResponse(headers: variant.headers) else { return .NO }
                result = MHD_queue_response(connection.pointer, UInt32(plan.status), response)
                MHD_destroy_response(response)
            } else if let rendered = plan.renderedBody {
                let response = ResponseFactory.make(body: rendered, headers: variant.headers)
                result = MHD_queue_response(connection.pointer, UInt32(plan.status), response)
                MHD_destroy_response(response)
            } else {
                result = MHD_queue_response(connection.pointer, UInt32(plan.status), prepared.response(route: r, variant: v))
            }
        case .reply(let reply):
            let response = ResponseFactory.make(body: reply.body, headers: reply.headers)
            result = MHD_queue_response(connection.pointer, UInt32(reply.status), response)
            MHD_destroy_response(response)
        }
        record(context, fault: nil)
        return result
    }

    private func record(_ context: RequestContext, fault: Fault?) {
        // Nothing to build when neither the access log nor the journal will take it.
        guard log.format != .off || control.keepsJournal else { return }
        guard let request = context.request, let plan = context.plan else { return }
        let elapsedMs = Double(MonotonicClock.now() - context.startNs) / 1_000_000
        let entry = RequestRecord(request: request, session: context.session, routeID: plan.routeID, variant: plan.variantName,
                                  status: fault == nil ? plan.status : 0, delayMs: context.delayMs, fault: fault,
                                  elapsedMs: elapsedMs, bodyBytes: context.bodyBytesSeen)
        log.write(entry)
        if admin == nil || !request.path.hasPrefix(AdminPaths.prefix) { control.record(entry) }
    }

    /// Resumes every suspended connection (they close) and waits, bounded, until MHD has seen them
    /// all. False when some are still suspended at the deadline (MHD_stop_daemon would abort then).
    func drain(timeoutMs: Int) -> Bool {
        stopping.withLock { $0 = true }
        let deadline = MonotonicClock.now() + UInt64(timeoutMs) * 1_000_000
        repeat {
            scheduler.resumeAll()
            if suspended.load(ordering: .relaxed) <= 0 { return true }
            usleepMs(1)
        } while MonotonicClock.now() < deadline
        return suspended.load(ordering: .relaxed) <= 0
    }
}

/// Paths of the admin API.
public enum AdminPaths {
    /// Every admin endpoint lives under this prefix; stubs cannot use it.
    public static let prefix = "/__stubd/"
}
