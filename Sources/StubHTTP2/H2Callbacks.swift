internal import CNGHTTP2
import StubCore
import StubSystem

// nghttp2's callbacks: file-scope functions that capture nothing, each finding its connection in
// the session's user data (the connection, unretained: the engine owns it until it closes the
// session). They run on the engine's thread, inside `nghttp2_session_mem_recv` and `_mem_send`.

/// The connection a session's callbacks run for.
private func connection(_ user: UnsafeMutableRawPointer?) -> H2Connection {
    Unmanaged<H2Connection>.fromOpaque(user!).takeUnretainedValue()
}

private let callbackFailure = Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)

/// A request's HEADERS begin: its stream is made.
func h2BeginHeaders(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
          frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    return connection(user).streamBegins(frame.pointee.hd.stream_id) ? 0 : callbackFailure
}

/// One header field of a request, decoded.
func h2Header(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?, _ nameLength: Int,
                      _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ user: UnsafeMutableRawPointer?) -> Int32 {
    // Trailers (a HEADERS after the body) are not the request's head: counted, never read as controls.
    guard let frame, let name, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    let connection = connection(user)
    guard let stream = connection.streams[frame.pointee.hd.stream_id] else { return 0 }
    let accepted = stream.addHeader(name: UnsafeBufferPointer(start: name, count: nameLength),
                                    value: UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength))
    return accepted ? 0 : connection.refuse(H2Engine.enhanceYourCalm)
}

/// A piece of a request body.
func h2DataChunk(_ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
                         _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let data, let stream = connection(user).streams[streamID] else { return 0 }
    stream.appendBody(UnsafeBufferPointer(start: data, count: length))
    return 0
}

/// A whole frame arrived: a request whose END_STREAM came is complete; control frames and empty
/// frames are counted against floods.
func h2FrameReceived(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let frame else { return 0 }
    let connection = connection(user)
    let header = frame.pointee.hd
    let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    switch UInt32(header.type) {
    case NGHTTP2_HEADERS.rawValue, NGHTTP2_DATA.rawValue:
        if header.type == UInt8(NGHTTP2_DATA.rawValue) && header.length == 0 && !endStream, !connection.countControlFrame() {
            return connection.refuse(H2Engine.enhanceYourCalm)
        }
        guard let stream = connection.streams[header.stream_id] else { return 0 }
        if endStream {
            stream.requestComplete()
        } else if header.type == UInt8(NGHTTP2_HEADERS.rawValue) {
            // A body follows: its deadline, extended as it arrives, as for HTTP/1.1.
            connection.engine.services.admission.headReceived(connection.admitted, expectsBody: true, now: connection.now)
        }
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
func h2StreamClosed(_ session: OpaquePointer?, _ streamID: Int32, _ code: UInt32, _ user: UnsafeMutableRawPointer?) -> Int32 {
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
