import StubCore
import StubTransport
import StubSystem
import StubWebSocket

/// The lifecycle's actions carried out on libmicrohttpd: queue, suspend, write raw bytes,
/// upgrade, reset, close; and the pulls of a pulled body.
extension RequestBridge {
    /// Carries out one action of the lifecycle.
    func execute(_ action: LifecycleAction, _ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        switch action {
        case .proceed:
            return .proceed
        case .respond(let status, .prepared(let key)):
            // The request's context holds the prepared catalog, which owns the response.
            guard let prepared = context.prepared else { return .close }
            return connection.queue(status: status, prepared.response(key: key)) ? .proceed : .close
        case .respond(let status, .bytes(let bytes, let headers)):
            return connection.queue(status: status, MHDResponse(bytes: bytes, headers: headers)) ? .proceed : .close
        case .respond(let status, .pulled(let length, let headers)):
            guard let response = MHDResponse(pulling: LifecycleBody(context, bridge: self), size: length, headers: headers) else { return .close }
            return connection.queue(status: status, response) ? .proceed : .close
        case .suspend(let until):
            return suspend(connection, context, until: until) == nil ? .close : .proceed
        case .startDeferred(let work, let box):
            guard let ticket = suspend(connection, context, until: .max) else { return .close }
            let suspensions = self.suspensions
            if !jobs.start(work, done: { reply in
                box.deliver(reply)
                suspensions.resumeEarly(ticket)
            }) {
                box.deliver(jobs.busyReply(work))
                suspensions.resumeEarly(ticket)
            }
            return .proceed
        case .suspendFor(let until, let start):
            guard let ticket = suspend(connection, context, until: until) else { return .close }
            let suspensions = self.suspensions
            start { suspensions.resumeEarly(ticket) }
            return .proceed
        case .writeRaw(let bytes, let next):
            return writeRaw(bytes, then: next, connection, context)
        case .upgrade(let headers, let open):
            // The place the lifecycle reserved goes back when the target does, unless the 101 went out.
            let target = UpgradeTarget(hub: webSockets, open: open)
            context.upgrade = target
            guard let response = MHDResponse(upgradingTo: target, headers: headers) else { return .close }
            return connection.queue(status: 101, response) ? .proceed : .close
        case .reset:
            if let socket = connection.socket { FaultInjector.reset(socket) }
            return .close
        case .close:
            return .close
        }
    }

    /// A fault's raw bytes: what the socket takes now is written here; the rest, for a client that
    /// reads slowly, goes out from `rawWrites`' thread while the connection waits suspended (at
    /// most `--hold-cap`), so a serving thread never waits on one client.
    private func writeRaw(_ bytes: [UInt8], then next: LifecycleAction.AfterRawWrite, _ connection: MHDConnection,
                          _ context: RequestContext) -> Outcome {
        guard let socket = connection.socket else { return .close }
        var rest = bytes[...]
        if !context.rawWriteHandedOver || !rawWrites.hasPending(socket) {
            guard let written = RawWriter.writeNow(rest, to: socket) else { return .close }
            rest = rest.dropFirst(written)
        }
        switch next {
        case .close where rest.isEmpty:
            return .close
        case .close:
            guard let ticket = suspend(connection, context, until: ConnectionAdmission.due(MonotonicClock.now(), environment.holdCapNs)) else {
                return .close
            }
            let suspensions = self.suspensions
            context.rawWriteHandedOver = true
            rawWrites.write(Array(rest), to: socket) { suspensions.resumeEarly(ticket) }
            return .proceed
        case .suspend(let until):
            guard suspend(connection, context, until: until) != nil else { return .close }
            // The next piece queues behind these, on the writer, if they are still going out.
            if !rest.isEmpty {
                context.rawWriteHandedOver = true
                rawWrites.write(Array(rest), to: socket, done: nil)
            }
            return .proceed
        }
    }

    /// Suspends the connection through the owner; the lifecycle hears the ticket.
    private func suspend(_ connection: MHDConnection, _ context: RequestContext, until: UInt64) -> UInt64? {
        guard let ticket = suspensions.suspend(connection.handle, fd: connection.socket, mark: &context.suspension, until: until) else { return nil }
        context.life.suspended(ticket: ticket, env: environment)
        return ticket
    }

    /// One pull of a pulled body, on the connection's polling thread.
    func pull(_ context: RequestContext, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> PulledBody.ReadResult {
        let gone = suspensions.resumed(&context.suspension)
        let result = context.life.pull(at: offset, into: PullBuffer(buffer), now: MonotonicClock.now(), stopping: suspensions.isStopping, clientGone: gone)
        switch result {
        case .copied(let count): return .copied(count)
        case .end: return .end
        case .abort: return .abort
        case .reset:
            if let socket = context.connection?.socket { FaultInjector.reset(socket) }
            return .abort
        case .wait(let until):
            guard let connection = context.connection else { return .abort }
            return suspend(connection, context, until: until) == nil ? .abort : .suspended
        }
    }

    /// libmicrohttpd freed a pulled response: the body was sent, cut, or the client left.
    func responseFreed(_ context: RequestContext) {
        suspensions.ended(&context.suspension)
        context.life.responseFreed(context, env: environment, now: MonotonicClock.now())
    }
}
