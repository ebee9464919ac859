/// A request sent under `/__session/<id>/…`: the same request with the prefix taken off its path.
/// Clients that cannot add the `X-Stub-Session` header (an app under XCUITest whose base URL comes
/// from `launchEnvironment`) put the session in the URL instead; everything after the prefix is
/// matched, templated and journaled as if it had been sent without it.
struct SessionScopedRequest: RequestHead {
    let base: any RequestHead
    /// The path without the prefix, as sent.
    let path: String
    /// The session named by the prefix, percent-decoded.
    let session: String

    /// The scoped request, nil when `base`'s path has no session prefix, or a problem to answer
    /// with 400 when the prefix names no session.
    static func split(_ base: any RequestHead) -> Result<SessionScopedRequest, ReplyFailure>? {
        let path = base.path
        guard path.utf8.starts(with: Limits.sessionPathPrefix.utf8) else { return nil }
        let afterPrefix = path.dropFirst(Limits.sessionPathPrefix.count)
        let id = afterPrefix.prefix { $0 != "/" }
        let rest = afterPrefix.dropFirst(id.count)
        let session = PathDecoding.decodedWhole(String(id))
        guard !session.isEmpty else {
            return .failure(ReplyFailure(.error(400, "invalid session path", [
                ("path", .string(path)), ("expected", .string("\(Limits.sessionPathPrefix)<session id>/<path>, like /__session/ui-test-3/api/v1/users")),
            ])))
        }
        return .success(SessionScopedRequest(base: base, path: rest.isEmpty ? "/" : String(rest), session: session))
    }

    var method: String { base.method }
    var body: [UInt8] { base.body }
    var scheme: RequestScheme { base.scheme }
    func header(_ name: String) -> String? { base.header(name) }
    func queryValue(_ name: String) -> String? { base.queryValue(name) }
    func queryValues(_ name: String) -> [String] { base.queryValues(name) }
    func allQueryParameters() -> [(name: String, value: String)] { base.allQueryParameters() }
    func allHeaders() -> [(name: String, value: String)] { base.allHeaders() }
    var mayCarryControls: Bool { base.mayCarryControls }
}
