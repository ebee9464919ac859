import StubSystem
/// What a request's lifecycle tells the transport to do next. The transport carries it out and
/// reports back (a resume, a pull, the connection's end); it decides nothing itself.
package enum LifecycleAction {
    /// Nothing to do now (the head is fine; more body may follow).
    case proceed
    /// Queue this response.
    case respond(status: Int, body: ResponseBody)
    /// Stop serving the connection until it is resumed: at `until` (monotonic ns; `.max` waits
    /// for an early resume), by a release, or because the client left. Report the ticket back with
    /// `RequestLifecycle.suspended(ticket:)`.
    case suspend(until: UInt64)
    /// Suspend as `suspend` does, then start `work`; when it hands its reply to `deliver`, resume
    /// the connection early.
    case startDeferred(DeferredReply.Work, deliver: DeferredBox)
    /// Suspend as `suspend` does, until `until` at the latest, then call `start` with a function
    /// that resumes the connection early: work done elsewhere (the fleet store's sequence step)
    /// leaves its result where the lifecycle reads it on resume.
    case suspendFor(until: UInt64, start: @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void)
    /// Write `bytes` on the raw connection, below HTTP (a fault), then `next`.
    case writeRaw([UInt8], then: AfterRawWrite)
    /// Answer 101 with `headers` and hand the connection to the WebSocket side, which holds
    /// `conversation` on it. Boxed (`indirect`): unboxed, its payload made every action of every
    /// request several times larger, copied with memcpy at each step (about 440 instructions per
    /// request, bench/instructions.py).
    indirect case upgrade(headers: [HTTPHeader], conversation: OpenConversation)
    /// Reset the connection (the peer sees RST), without an answer.
    case reset
    /// Close the connection without (more of) an answer.
    case close

    /// What follows a raw write.
    package enum AfterRawWrite {
        /// Close the connection.
        case close
        /// Wait until `until`, then resume (more bytes follow).
        case suspend(until: UInt64)
    }
}

/// A response's body as the transport sends it.
package enum ResponseBody {
    /// The prepared response of catalog variant `key` (`StubCatalog.variantKey`), built at load time.
    case prepared(key: Int)
    /// These bytes with these headers.
    case bytes([UInt8], headers: [HTTPHeader])
    /// A body the transport pulls with `RequestLifecycle.pull`, of `length` bytes (nil: unknown,
    /// sent chunked), with these headers.
    case pulled(length: Int?, headers: [HTTPHeader])
}

/// What one pull of a pulled body gives.
package enum PullResult: Equatable {
    /// This many bytes were copied into the buffer.
    case copied(Int)
    /// Nothing is due before `until`: suspend the connection until then, and pull again on resume.
    case wait(until: UInt64)
    /// The body is complete.
    case end
    /// End the response short (the client sees a connection closed mid-body).
    case abort
    /// Reset the connection (a stream's `cutAfter`).
    case reset
}

/// Where deferred work leaves its reply for the request's thread, which reads it on resume.
/// Made only for deferred replies, so a plain request allocates no lock.
package final class DeferredBox: Sendable {
    private let reply = Locked<Reply?>(nil)

    package init() {}

    /// Leaves the reply (from any thread).
    package func deliver(_ value: Reply) { reply.withLock { $0 = value } }

    /// The reply, once delivered.
    package var delivered: Reply? { reply.withLock { $0 } }
}

/// Where the fleet store's answer to a request's sequence step is left for the request's
/// thread, which reads it on resume.
package final class StepBox: Sendable {
    private let answer = Locked<(delivered: Bool, step: Int?)>((false, nil))

    package init() {}

    /// Leaves the step (nil: the store did not answer), from any thread.
    package func deliver(_ step: Int?) { answer.withLock { $0 = (true, step) } }

    /// The step, once delivered; nil until then or when the store did not answer.
    package var step: Int? { answer.withLock { $0.step } }
}

/// Where the plan made on the memory store's thread is left for the request that waits for it.
package final class PlanBox: Sendable {
    private let made = Locked<ResponsePlan?>(nil)

    package init() {}

    /// Leaves the plan, from any thread.
    package func deliver(_ plan: ResponsePlan) { made.withLock { $0 = plan } }

    /// The plan, once delivered.
    package var plan: ResponsePlan? { made.withLock { $0 } }
}

/// A conversation about to start on an upgraded connection: its script and what the journal and
/// the admin API name it by.
package struct OpenConversation: Sendable {
    /// The script.
    package let conversation: Conversation
    /// The route's id (`chat/room`).
    package let routeID: String
    /// The variant that was picked.
    package let variant: String
    /// The subprotocol chosen in the handshake.
    package let subprotocol: String?
    /// The session the handshake was made in, if any.
    package let session: String?
    /// The handshake's path, as sent.
    package let path: String
    /// The handshake's `Origin`, for the record.
    package var origin: String?
    /// The handshake request (without a body) and its route, for templated messages.
    package var handshake: StubRequest?
    package var route: Route?
    /// Where templated messages read state, for a route that remembers.
    package var memory: (memory: StubMemory, seed: [String: JSONValue])?

    package init(conversation: Conversation, routeID: String, variant: String, subprotocol: String?, session: String?, path: String) {
        self.conversation = conversation
        self.routeID = routeID
        self.variant = variant
        self.subprotocol = subprotocol
        self.session = session
        self.path = path
    }
}

extension OpenConversation {
    /// A templated message's text: `{{path.…}}`, `{{query.…}}`, `{{header.…}}`, `{{method}}` and
    /// `{{request.path}}` from the handshake, `{{body.…}}` from `message`, the client's message
    /// being answered (a top-level field of a JSON object; empty in `onOpen`).
    package func render(_ template: ResponseTemplate, answering message: [UInt8]?) -> String {
        var request = handshake ?? StubRequest(method: "GET", path: path)
        request.body = message ?? []
        request.headers.removeAll { ASCIICase.equal($0.name, "Content-Type") }
        request.headers.append(("Content-Type", "application/json"))
        var view = route.map { RequestView(request, route: $0) } ?? RequestView(request, parameters: [:])
        if let memory, let route, let routeMemory = route.memory {
            view.memory = MemoryView(memory: memory.memory, scope: Scope(session), service: routeMemory.service, seed: memory.seed,
                                     routeID: route.id, requestSeed: nil)
        }
        return String(decoding: template.render(&view), as: UTF8.self)
    }
}
