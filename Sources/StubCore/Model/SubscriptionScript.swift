/// What a GraphQL subscription variant streams over `graphql-transport-ws`: its `next` payloads,
/// each after its delay, then `complete` unless the stream stays open.
package struct SubscriptionScript: Sendable {
    /// One `next` message: its payload (`data`, and `errors` or `extensions` if given) and the
    /// delay before it, counted from the one before (the first from the `subscribe`).
    package struct Event: Sendable {
        package let payload: JSONValue
        package let delay: DelaySpec?
    }

    package let events: [Event]
    /// Sends `complete` after the last event; false leaves the subscription open (pushed to
    /// from the admin API) until the client completes it.
    package let complete: Bool

    package init(events: [Event], complete: Bool) {
        self.events = events
        self.complete = complete
    }
}
