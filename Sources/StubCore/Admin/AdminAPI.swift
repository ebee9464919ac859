#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The admin API under `/__stubd/`: health, routes and overrides, the request journal, reset and
/// reload. A pure function of a request: the transport hands requests in and sends the reply.
package struct AdminAPI: Sendable {
    /// Every endpoint as `METHOD /path`; docs/admin-api.json must describe exactly these.
    package static let endpoints = [
        "GET /__stubd/health", "GET /__stubd/routes", "DELETE /__stubd/routes",
        "GET /__stubd/routes/{route}", "PUT /__stubd/routes/{route}", "DELETE /__stubd/routes/{route}",
        "POST /__stubd/routes/{route}/release",
        "GET /__stubd/journal", "DELETE /__stubd/journal", "GET /__stubd/journal/count",
        "GET /__stubd/journal/stream", "GET /__stubd/journal/pact", "POST /__stubd/pact/state",
        "GET /__stubd/sessions", "DELETE /__stubd/sessions/{session}",
        "GET /__stubd/conversations", "POST /__stubd/conversations/send", "POST /__stubd/conversations/close",
        "GET /__stubd/conversations/{id}", "POST /__stubd/conversations/{id}/send", "POST /__stubd/conversations/{id}/close",
        "POST /__stubd/reset", "POST /__stubd/reload", "GET /__stubd/ui",
    ] + memoryEndpoints

    let control: StubControl
    let host: any AdminHost
    let token: String?
    let version: String
    /// The dashboard's files; nil when it is off (`--no-ui`).
    let ui: AdminFiles?
    /// Who may call at all: no web page but the dashboard's own (see `AdminGuard`).
    let pageGuard: AdminGuard

    /// Makes the API over a control and a host; with a `token`, every call but health and the
    /// dashboard's files needs `Authorization: Bearer <token>`. Every call, health and the
    /// dashboard included, first passes `guard`.
    package init(control: StubControl, host: any AdminHost, token: String?, version: String, ui: AdminFiles? = nil, guard: AdminGuard = AdminGuard()) {
        self.control = control
        self.host = host
        self.token = token
        self.version = version
        self.ui = ui
        pageGuard = `guard`
    }

    /// The response to one admin request. `session` scopes overrides and the journal. A reload
    /// is deferred, so that reading a large stub directory holds no thread that serves requests;
    /// so is, in a fleet, every call that may talk to the store. The others are answered at once.
    package func respond(to request: StubRequest, session: String?) -> ResponsePlan.Response {
        if let refused = pageGuard.refusal(request) { return .reply(refused) }
        let parts = PathTemplate.split(request.path.dropFirst(Limits.adminPrefix.count - 1))
        if parts == ["health"] { return .reply(request.method == "GET" || request.method == "HEAD" ? health() : notAllowed(["GET"])) }
        if parts.first == "ui" { return .reply(dashboard(request, parts: parts)) }
        if let token, request.header("Authorization") != "Bearer \(token)" {
            return .reply(.error(401, "admin token required", [("hint", .string("send Authorization: Bearer <token> (stubd --admin-token)"))],
                                 headers: [HTTPHeader("WWW-Authenticate", "Bearer realm=\"stubd\"")]))
        }
        if request.body.count > Limits.maxAdminBodyBytes {
            return .reply(.error(413, "admin request body too large", [("limit", .string("\(Limits.maxAdminBodyBytes) bytes")),
                                                                        ("received", .string("\(request.body.count) bytes"))]))
        }
        if parts == ["journal", "stream"] { return stream(request, session: session) }
        // A contract of a full journal takes a good part of a second: made off the serving threads.
        if parts == ["journal", "pact"] { return .deferred(DeferredReply { self.pact(request, session: session) }) }
        if parts == ["reload"] {
            return request.method == "POST" ? .deferred(DeferredReply { self.reload() }) : .reply(notAllowed(["POST"]))
        }
        // A reload is this replica's own; every other change is the fleet's.
        if let refused = refusedWhileStoreAway(request.method) { return .reply(refused) }
        if let shared = control.shared {
            // In a fleet most calls talk to the store: made on its thread, in turn with the
            // requests' calls, never on a thread that serves requests.
            return .deferred(DeferredReply(start: { done in shared.perform { done(self.handle(request, parts: parts, session: session)) } }))
        }
        return .reply(handle(request, parts: parts, session: session))
    }

    /// Answers the calls made at once, once health, the token and reload are dealt with.
    private func handle(_ request: StubRequest, parts: [String], session: String?) -> Reply {
        switch (parts.first, parts.count) {
        case ("routes", 1):
            switch request.method {
            case "GET": return routes(session: session)
            case "DELETE": return clearAllOverrides(session: session)
            default: return notAllowed(["GET", "DELETE"])
            }
        case ("routes", _) where request.method == "POST" && parts.count > 2 && parts.last == "release":
            return release(parts.dropFirst().dropLast().joined(separator: "/"), body: request.body, session: session)
        case ("routes", _):
            let id = parts.dropFirst().joined(separator: "/")
            switch request.method {
            case "GET": return showOverride(id, session: session)
            case "PUT": return putOverride(id, body: request.body, session: session)
            case "DELETE": return deleteOverride(id, session: session)
            default: return notAllowed(["GET", "PUT", "DELETE"])
            }
        // `requests` is the journal's first name, still answered.
        case ("journal", 1), ("requests", 1):
            switch request.method {
            case "GET": return journal(request, session: session)
            case "DELETE":
                control.clearJournal(session: session)
                return .json(200, .object([("cleared", .bool(true))]))
            default: return notAllowed(["GET", "DELETE"])
            }
        case ("pact", 2) where parts[1] == "state":
            return pactState(request, session: session)
        case ("journal", 2) where parts[1] == "count", ("requests", 2) where parts[1] == "count":
            return request.method == "GET" ? count(request, session: session) : notAllowed(["GET"])
        case ("sessions", _):
            return sessions(request, parts: parts)
        case ("conversations", _):
            return conversations(request, parts: parts, session: session)
        case ("state", _), ("seed", _), ("collections", _):
            return memory(request, parts: parts, session: session) ?? .error(404, "unknown admin endpoint", [("path", .string(request.path))])
        case ("reset", 1):
            guard request.method == "POST" else { return notAllowed(["POST"]) }
            guard control.reset(session: session, requireStore: true) else { return storeAwayReply }
            return .json(200, .object([("reset", .bool(true)), ("session", session.map { .string($0) } ?? .null)]))
        default:
            return .error(404, "unknown admin endpoint", [("path", .string(request.path)),
                                                          ("endpoints", .array(AdminAPI.endpoints.map { .string($0) }))])
        }
    }

    /// The dashboard's page and files, or why there are none.
    func dashboard(_ request: StubRequest, parts: [String]) -> Reply {
        guard request.method == "GET" || request.method == "HEAD" else { return notAllowed(["GET"]) }
        guard let ui else {
            return .error(404, "the dashboard is off", [("hint", .string("start stubd without --no-ui"))])
        }
        return ui.reply(for: parts.dropFirst().joined(separator: "/"))
    }

    func notAllowed(_ methods: [String]) -> Reply {
        .error(405, "method not allowed", [("allowed", .array(methods.map { .string($0) }))],
               headers: [HTTPHeader("Allow", methods.joined(separator: ", "))])
    }

    func health() -> Reply {
        let report = host.health
        let fleet = fleetHealth()
        let status = fleet?.degraded == true ? HealthReport.Status.degraded : report.status
        var members: [(key: String, value: JSONValue)] = [
            ("status", .string(status.rawValue)),
            ("routes", .number(Double(host.currentCatalog.routes.count))),
            ("stubsLoadedAt", .string(ISO8601.format(report.loadedAt))),
            ("version", .string(version)),
            ("contractViolations", .number(Double(control.contractViolationCount))),
        ]
        if !report.problems.isEmpty { members.append(("errors", .array(report.problems.map { .string($0.description) }))) }
        let limits = host.limitsHit
        if !limits.isEmpty { members.append(("limitsHit", .object(limits.map { ($0.name, .number(Double($0.count))) }))) }
        if let fleet { members.append(fleet.member) }
        return .json(200, .object(members))
    }

    func reload() -> Reply {
        switch host.reloadNow() {
        case .success(let catalog):
            return .json(200, .object([("status", .string(HealthReport.Status.ok.rawValue)), ("routes", .number(Double(catalog.routes.count)))]))
        case .failure(let failure):
            return .json(422, .object([
                ("status", .string(HealthReport.Status.degraded.rawValue)),
                ("error", .string("the stub directory has problems; the last good stubs are still served")),
                ("errors", .array(failure.problems.map { .string($0.description) })),
            ]))
        }
    }
}
