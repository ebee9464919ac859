/// Answers a request that no route matches, instead of the 404 or 405 (`--proxy-unmatched`).
/// Called on a background thread; it may take as long as the upstream does.
package protocol UnmatchedRequestHandler: Sendable {
    /// The reply for `request` (control query parameters removed, session prefix taken off).
    func reply(to request: StubRequest) -> Reply
}
