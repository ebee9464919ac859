/// Whose state an override, a sequence or a hold belongs to: every request's (the global
/// scope) or one test's session (`X-Stub-Session`, or a `/__stubd/session/NAME/` URL).
package enum Scope: Hashable, Sendable {
    case global
    case session(String)

    /// The scope of a request's session name; no name (or an empty one) is the global scope.
    package init(_ session: String?) {
        if let session, !session.isEmpty { self = .session(session) } else { self = .global }
    }
}
