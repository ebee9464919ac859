internal import CNGHTTP2

/// Making a connection's nghttp2 session.
extension H2Engine {
    /// GOAWAY's code for a client that floods or sends more than it may (RFC 9113 §7).
    static let enhanceYourCalm = UInt32(NGHTTP2_ENHANCE_YOUR_CALM.rawValue)

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
