internal import CNGHTTP2
import StubCore
import StubTransport

/// The streams' comings and goings, as nghttp2's callbacks report them, and the flood counts.
extension H2Connection {
    /// A request's HEADERS began on stream `id`.
    func streamBegins(_ id: Int32) -> Bool {
        // The connection's first head since it went quiet: its head deadline starts.
        if streams.isEmpty { engine.services.admission.headStarted(admitted, now: now) }
        streams[id] = H2Stream(id: id, connection: self, startNs: now)
        return true
    }

    /// Stream `id` closed: answered, reset by the client, or cut by a fault.
    func streamClosed(_ id: Int32, code: UInt32) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        stream.ended()
        if streams.isEmpty { engine.services.admission.requestDone(admitted) }
    }

    /// What a callback returns to refuse the client: the connection ends with GOAWAY(`code`).
    func refuse(_ code: UInt32) -> Int32 {
        pendingGoAway = code
        return Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
    }

    /// Counts a control or empty frame; false once the client floods.
    func countControlFrame() -> Bool { controlFrames.take(now: now) }

    /// Counts a stream the client reset; false once it resets faster than it could mean to.
    func countReset() -> Bool { resets.take(now: now) }
}


extension H2Connection {
    /// Resets, with CANCEL, each stream whose answer has waited for flow-control window past
    /// `limitNs`: a client that keeps the socket read but never opens its window would otherwise
    /// hold the answer, and its memory, for ever. True when any was reset.
    func resetStalledStreams(now: UInt64, limitNs: UInt64) -> Bool {
        guard let session else { return false }
        self.now = now
        var reset = false
        let connectionWindow = nghttp2_session_get_remote_window_size(session)
        for stream in streams.values where stream.hasUnsentBody {
            guard min(connectionWindow, nghttp2_session_get_stream_remote_window_size(session, stream.id)) <= 0 else {
                stream.stalledSince = nil
                continue
            }
            guard let since = stream.stalledSince else {
                stream.stalledSince = now
                continue
            }
            if now &- since >= limitNs {
                stream.reset(NGHTTP2_CANCEL)
                reset = true
            }
        }
        return reset
    }

    /// A deferred body has more due: nghttp2 asks the stream again.
    func resumeData(_ id: Int32) {
        guard let session else { return }
        _ = nghttp2_session_resume_data(session, id)
    }

    /// GOAWAY(NO_ERROR) naming `lastStream`, or the last stream taken: the client sends later
    /// requests on a new connection.
    func sayGoingAway(lastStream: Int32? = nil) {
        guard let session else { return }
        _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream ?? nghttp2_session_get_last_proc_stream_id(session),
                                  UInt32(NGHTTP2_NO_ERROR.rawValue), nil, 0)
    }
}
