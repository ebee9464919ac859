/// Answers a request that no route matches, instead of the 404 or 405 (`--proxy-unmatched`).
package protocol UnmatchedRequestHandler: Sendable {
    /// Starts answering `request` (control query parameters removed, session prefix taken off)
    /// and returns at once; `done` gets the reply, on any thread, when it is ready.
    func reply(to request: StubRequest, done: @escaping @Sendable (Reply) -> Void)
    /// Ends the calls still in flight and finishes whatever the handler writes; the server calls
    /// it once, when it stops, after no more requests arrive.
    func stop()
}

extension UnmatchedRequestHandler {
    /// Nothing to end, for a handler that answers at once.
    package func stop() {}
}
