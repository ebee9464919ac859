import StubCore
import StubTransport
import StubWebSocket
import StubHTTP2

/// The limits the configuration's settings make for the transport's owners.
extension StubServerConfiguration {
    /// The limits `ConnectionAdmission` enforces.
    var admissionLimits: ConnectionAdmission.Limits {
        let defaultCap = bindsLoopback ? 0 : max(1, connectionLimit / 2)
        // Idle 0 means no timeout: no idle deadline either. Otherwise one second of slack: where
        // libmicrohttpd keeps its own idle timer (see `MHDDaemon.timesIdleConnections`) it closes
        // a quiet connection first, and only one that keeps sending without finishing a head is
        // cut here; on Linux the sweeper closes both.
        let idle = idleTimeoutSeconds <= 0 ? UInt64.max : UInt64(min(idleTimeoutSeconds, Limits.maxDurationMs / 1000) + 1) * 1_000_000_000
        return ConnectionAdmission.Limits(connections: max(1, connectionLimit), perClient: max(0, maxClientConnections ?? defaultCap),
                                          headerTimeoutNs: UInt64(max(1, min(headerTimeoutMs, Limits.maxDurationMs))) * 1_000_000, idleNs: idle,
                                          bodyNs: UInt64(max(1, min(bodyTimeoutMs, Limits.maxDurationMs))) * 1_000_000, minBodyRate: max(0, minBodyRate))
    }

    /// libmicrohttpd's own limit: above ours, so it never stops accepting (which would leave new
    /// clients in the backlog) and stubd refuses the excess itself, at once.
    var daemonConnectionLimit: Int { max(1, connectionLimit) + 32 }

    /// The bounds of the WebSocket hub: conversations take at most three quarters of the
    /// connections (`WebSocketLimits.conversations(forConnections:)`), whatever is asked.
    var webSocketLimits: WebSocketLimits {
        var limits = WebSocketLimits()
        let room = WebSocketLimits.conversations(forConnections: max(1, connectionLimit))
        limits.conversations = min(webSocketMaxConversations ?? room, room)
        limits.queueBytes = max(1024, webSocketMaxQueueBytes)
        limits.totalQueueBytes = max(limits.queueBytes, webSocketMaxQueueTotalBytes)
        limits.idleNs = UInt64(max(0, min(webSocketIdleTimeoutMs, Limits.maxDurationMs))) * 1_000_000
        return limits
    }

    /// The bounds of HTTP/2 connections: the head and body limits HTTP/1.1 has, and the streams asked for.
    func h2Limits(stalledSendLimitMs: Int?) -> H2Limits {
        var limits = H2Limits()
        limits.maxStreams = max(1, tls?.http2MaxStreams ?? limits.maxStreams)
        limits.maxHeadBytes = max(1024, maxHeadBytes)
        limits.maxBodyBytes = max(0, maxBodyBytes)
        limits.stalledSendLimitMs = stalledSendLimitMs
        limits.helloTimeoutNs = admissionLimits.headerTimeoutNs
        return limits
    }
}
