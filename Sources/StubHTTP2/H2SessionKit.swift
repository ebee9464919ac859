internal import CNGHTTP2

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
