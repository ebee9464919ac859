/// A response body libmicrohttpd pulls piece by piece through its content reader, instead of
/// bytes handed over at once: a throttled body, a stream of events, or a truncated body. One
/// reader and one free callback (`stubdPulledRead`, `stubdPulledFree`) serve every kind.
class PulledBody {
    /// What one call of the content reader does.
    enum ReadResult {
        /// This many bytes were copied.
        case copied(Int)
        /// Nothing yet: the connection is suspended until more is due.
        case suspended
        /// The whole body was sent.
        case end
        /// Close the connection (the server is stopping, or the body ends short on purpose).
        case abort
    }

    /// Copies what is due at body `offset` into `buffer`.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult { .abort }

    /// libmicrohttpd freed the response: the body was sent, cut, or the client left.
    func responseFreed() {}
}
