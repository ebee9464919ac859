internal import CNGHTTP2
import StubCore
import StubSystem

// nghttp2's callbacks: file-scope functions that capture nothing, each finding its connection in
// the session's user data (the connection, unretained: the engine owns it until it closes the
// session). They run on the engine's thread, inside `nghttp2_session_mem_recv` and `_mem_send`.

/// The callbacks and options every session of one engine shares, made once.
final class H2SessionKit {
    let callbacks: OpaquePointer
    let options: OpaquePointer
    /// True when the library has the rapid-reset and CONTINUATION bounds (found at run time).
    let resetLimitSet: Bool
    let continuationLimitSet: Bool

    init?(limits: H2Limits) {
        var callbacks: OpaquePointer?
        var options: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        guard nghttp2_option_new(&options) == 0, let options else {
            nghttp2_session_callbacks_del(callbacks)
            return nil
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, h2BeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, h2Header)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, h2DataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, h2FrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, h2StreamClosed)
        // No RFC 7540 priority tree: nothing here is scheduled by it.
        nghttp2_option_set_no_closed_streams(options, 1)
        nghttp2_option_set_max_settings(options, 32)
        // Twice stubd's own bound: stubd's count fires first and says ENHANCE_YOUR_CALM; the
        // library's (which says INTERNAL_ERROR) stays as a backstop.
        resetLimitSet = CNGHTTP2_set_stream_reset_rate_limit(options, UInt64(2 * limits.resetBurst), UInt64(2 * limits.resetPerSecond)) == 1
        continuationLimitSet = CNGHTTP2_set_max_continuations(options, limits.maxContinuations) == 1
        self.callbacks = callbacks
        self.options = options
    }

    deinit {
        nghttp2_option_del(options)
        nghttp2_session_callbacks_del(callbacks)
    }
}

extension H2Engine {
    /// A server session for `connection`, its SETTINGS queued.
    func makeSession(for connection: H2Connection) -> OpaquePointer? {
        var made: OpaquePointer?
        let user = Unmanaged.passUnretained(connection).toOpaque()
        guard nghttp2_session_server_new2(&made, kit.callbacks, user, kit.options) == 0, let made else { return nil }
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: UInt32(limits.maxStreams)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(limits.maxHeadBytes)),
        ]
        guard nghttp2_submit_settings(made, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count) == 0 else {
            nghttp2_session_del(made)
            return nil
        }
        return made
    }
}

/// The connection a session's callbacks run for.
private func connection(_ user: UnsafeMutableRawPointer?) -> H2Connection {
    Unmanaged<H2Connection>.fromOpaque(user!).takeUnretainedValue()
}

private let callbackFailure = Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)

/// A request's HEADERS begin: its stream is made.
private func h2BeginHeaders(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
          frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    return connection(user).streamBegins(frame.pointee.hd.stream_id) ? 0 : callbackFailure
}

/// One header field of a request, decoded.
private func h2Header(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?, _ nameLength: Int,
                      _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let frame, let name else { return 0 }
    let connection = connection(user)
    guard let stream = connection.streams[frame.pointee.hd.stream_id] else { return 0 }
    let accepted = stream.addHeader(name: UnsafeBufferPointer(start: name, count: nameLength),
                                    value: UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength))
    return accepted ? 0 : connection.refuse(H2Engine.enhanceYourCalm)
}

/// A piece of a request body.
private func h2DataChunk(_ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
                         _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let data, let stream = connection(user).streams[streamID] else { return 0 }
    stream.appendBody(UnsafeBufferPointer(start: data, count: length))
    return 0
}

/// A whole frame arrived: a request whose END_STREAM came is complete; control frames and empty
/// frames are counted against floods.
private func h2FrameReceived(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let frame else { return 0 }
    let connection = connection(user)
    let header = frame.pointee.hd
    let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    switch UInt32(header.type) {
    case NGHTTP2_HEADERS.rawValue, NGHTTP2_DATA.rawValue:
        if header.type == UInt8(NGHTTP2_DATA.rawValue) && header.length == 0 && !endStream, !connection.countControlFrame() {
            return connection.refuse(H2Engine.enhanceYourCalm)
        }
        if endStream, let stream = connection.streams[header.stream_id] { stream.requestComplete() }
    case NGHTTP2_RST_STREAM.rawValue:
        guard connection.countReset(), connection.countControlFrame() else { return connection.refuse(H2Engine.enhanceYourCalm) }
    case NGHTTP2_SETTINGS.rawValue, NGHTTP2_PING.rawValue, NGHTTP2_PRIORITY.rawValue, NGHTTP2_WINDOW_UPDATE.rawValue:
        guard connection.countControlFrame() else { return connection.refuse(H2Engine.enhanceYourCalm) }
    default:
        break
    }
    return 0
}

/// A stream closed, answered or reset by either side.
private func h2StreamClosed(_ session: OpaquePointer?, _ streamID: Int32, _ code: UInt32, _ user: UnsafeMutableRawPointer?) -> Int32 {
    connection(user).streamClosed(streamID, code: code)
    return 0
}

/// The one read callback of every response body: the stream copies what is due.
func h2ReadBody(_ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
                _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
                _ user: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let flags, let stream = connection(user).streams[streamID] else {
        return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
    }
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length), flags: flags)
}
