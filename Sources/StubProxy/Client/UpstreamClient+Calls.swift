import StubCore
import StubSystem

/// How a call moves through the client: a slot for its origin, a pooled or new connection
/// (after resolving the host), then its socket's readiness until it ends. All on the client's thread.
extension UpstreamClient {
    /// Gives `call` a slot for its origin, or queues it behind the calls holding them.
    func admit(_ call: UpstreamCall, scratch: UnsafeMutableRawBufferPointer) {
        guard counts[call.origin, default: 0] < UpstreamClient.maxConnectionsPerHost else { return queued.append(call) }
        counts[call.origin, default: 0] += 1
        active[ObjectIdentifier(call)] = call
        if let socket = pooledSocket(for: call.origin) {
            call.attach(socket, reused: true)
            drive(call, scratch: scratch)
        } else {
            connect(call, scratch: scratch)
        }
    }

    /// An idle connection to `origin` the upstream has not closed, if one is kept.
    private func pooledSocket(for origin: UpstreamOrigin) -> UpstreamSocket? {
        while let socket = idle[origin]?.popLast() {
            if !LibC.peerClosed(socket.fd) { return socket }
        }
        return nil
    }

    /// Opens a new connection for `call`: at once when its origin's addresses are known,
    /// else after the resolver has looked them up.
    func connect(_ call: UpstreamCall, scratch: UnsafeMutableRawBufferPointer) {
        let now = UpstreamClient.nowMs()
        if let known = resolved.withLock({ $0[call.origin] }), known.untilMs > now {
            call.addresses = known.addresses
            return open(call, scratch: scratch)
        }
        let first = resolving[call.origin] == nil
        resolving[call.origin, default: []].append(call)
        guard first else { return }
        let origin = call.origin
        resolver.async { [self] in
            let result = origin.resolve()
            if case .success(let addresses) = result {
                resolved.withLock { $0[origin] = (addresses, UpstreamClient.nowMs() + UpstreamClient.resolvedForMs) }
            }
            inbox.withLock { $0.resolutions.append((origin, result)) }
            poke()
        }
    }

    func takeResolution(_ origin: UpstreamOrigin, _ result: Result<[SocketAddress], UpstreamFailure>, scratch: UnsafeMutableRawBufferPointer) {
        for call in resolving.removeValue(forKey: origin) ?? [] {
            switch result {
            case .success(let addresses):
                call.addresses = addresses
                open(call, scratch: scratch)
            case .failure(let failure): finish(call, .failure(failure), scratch: scratch)
            }
        }
    }

    /// Connects `call` to its next address; the last address's failure ends the call.
    private func open(_ call: UpstreamCall, scratch: UnsafeMutableRawBufferPointer) {
        while !call.addresses.isEmpty {
            let address = call.addresses.removeFirst()
            do {
                call.attach(try UpstreamSocket(to: address, origin: call.origin), reused: false)
                return drive(call, scratch: scratch)
            } catch where !call.addresses.isEmpty {
                continue
            } catch {
                return finish(call, .failure(error), scratch: scratch)
            }
        }
        finish(call, .failure(UpstreamFailure(.cannotConnect, "no address of \(call.origin.text) to connect to")), scratch: scratch)
    }

    /// Advances `call` as far as its socket allows and acts on how it ended.
    func drive(_ call: UpstreamCall, scratch: UnsafeMutableRawBufferPointer) {
        guard let outcome = call.advance(trust: trust, scratch: scratch) else { return }
        switch outcome {
        case .answered(let answer, let keepSocket):
            if keepSocket, let socket = call.socket, idle[call.origin, default: []].count < UpstreamClient.maxIdlePerHost {
                socket.idleSinceMs = UpstreamClient.nowMs()
                idle[call.origin, default: []].append(socket)
            }
            finish(call, .success(answer), scratch: scratch)
        case .failed(let failure): finish(call, .failure(failure), scratch: scratch)
        case .retry:
            call.restart()
            connect(call, scratch: scratch)
        case .nextAddress: open(call, scratch: scratch)
        }
    }

    /// Ends `call`, frees its slot, and starts the queued calls that slot lets in.
    func finish(_ call: UpstreamCall, _ result: Result<UpstreamCall.Answer, UpstreamFailure>, scratch: UnsafeMutableRawBufferPointer) {
        guard active.removeValue(forKey: ObjectIdentifier(call)) != nil else { return }
        counts[call.origin, default: 1] -= 1
        call.release()
        call.completion(result)
        if let next = queued.firstIndex(where: { counts[$0.origin, default: 0] < UpstreamClient.maxConnectionsPerHost }) {
            admit(queued.remove(at: next), scratch: scratch)
        }
    }

    /// Fails every call past its deadline and closes connections idle too long.
    func expire(scratch: UnsafeMutableRawBufferPointer) {
        let now = UpstreamClient.nowMs()
        for call in active.values where call.deadlineMs <= now {
            resolving[call.origin]?.removeAll { $0 === call }
            finish(call, .failure(call.timeoutFailure), scratch: scratch)
        }
        for call in queued where call.deadlineMs <= now { call.completion(.failure(call.timeoutFailure)) }
        queued.removeAll { $0.deadlineMs <= now }
        for origin in idle.keys { idle[origin]?.removeAll { now - $0.idleSinceMs > UpstreamClient.idleLimitMs } }
    }

    /// Fails every call in flight, waiting or just sent (stubd is stopping), and closes every connection.
    func endAll(with incoming: [UpstreamCall]) {
        let stopping = UpstreamFailure(.cancelled, "stubd is stopping")
        for call in Array(active.values) + queued + incoming {
            call.release()
            call.completion(.failure(stopping))
        }
        active = [:]
        queued = []
        resolving = [:]
        idle = [:]
    }
}
