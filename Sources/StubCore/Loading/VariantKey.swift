/// The keys a variant's object in `route.json` may hold, in the order the format describes them.
enum VariantKey: String, CaseIterable {
    case status, headers, body, error, when, then, description, delay, throttle, fault, template, stream, keepOpen, etag, lastModified, conversation, next, complete
}

/// A variant as its keys are read, before it is checked whole and made a `Variant`.
struct VariantDraft {
    let name: String
    let file: BodyFile?
    var status: Int?
    var headers: [HTTPHeader] = []
    var body: [UInt8]?
    var contentType: String?
    var condition: RequestCondition?
    /// The `when` parts that read state.
    var stateCondition = StateCondition()
    /// `then`: what the variant changes in state when it answers.
    var changes: StateChanges?
    var delay: DelaySpec?
    var throttle: Int?
    var fault: Fault?
    var description: String?
    var errorValues: [String: String]?
    var isTemplate = false
    var bodySource: String?
    var every: DelaySpec?
    var keepOpen = false
    var cutAfter: Int?
    var streamReset: StreamReset?
    /// `auto` or a quoted entity tag (`ValueReader.entityTag`).
    var etag: String?
    /// `Last-Modified` as sent.
    var lastModified: String?
    /// True when `etag` and `lastModified` are the variant's own keys, not the route's: only
    /// those beat an `ETag` or `Last-Modified` in the headers.
    var ownValidators = false
    /// A WebSocket variant's script.
    var conversation: Conversation?
    /// A subscription variant's `next` payloads and `complete`.
    var next: [SubscriptionScript.Event]?
    var complete: Bool?

    /// A draft with what the name and the body file give, and the route's delay and throttle.
    init(name: String, file: BodyFile?, delay: DelaySpec?, throttle: Int?) {
        self.name = name
        self.file = file
        status = BodyFile.leadingStatus(name)
        body = file?.bytes
        contentType = file?.contentType
        bodySource = file?.relative
        self.delay = delay
        self.throttle = throttle
    }
}
