/// The fields of one `ResponsePlan`. Shared by copies of a plan until one of them changes,
/// which first makes its own (see `ResponsePlan.unique`).
final class ResponsePlanStorage: @unchecked Sendable {
    // @unchecked: an instance is only written through `ResponsePlan.unique()`, which copies it
    // first unless the writing plan is its only owner; a shared instance is never written.
    var response: ResponsePlan.Response
    var status: Int
    var delayMs: Int = 0
    var fault: Fault? = nil
    var streamReset: StreamReset? = nil
    var throttleBytesPerSecond: Int? = nil
    var renderedBody: [UInt8]? = nil
    var routeID: String? = nil
    var route: Route? = nil
    var variantName: String? = nil
    var selection: ResponsePlan.Selection? = nil
    var sequenceStep: (step: Int, of: Int)? = nil
    var nearMisses: JSONValue? = nil
    var session: String? = nil
    var operation: String? = nil
    var scopedPath: String? = nil
    var journaled: Bool = true
    var stream: PlannedStream? = nil
    var contract: [ContractViolation]? = nil
    var hold: Bool = false
    var stepToken: String? = nil
    var unmatched: Bool = false
    var proxied: Bool = false
    var range: ByteRange? = nil
    var memoryChanges: [String]? = nil
    var awaitsMemory: Bool = false
    var catalog: StubCatalog? = nil

    init(response: ResponsePlan.Response, status: Int) {
        self.response = response
        self.status = status
    }

    /// A copy with every field.
    func copy() -> ResponsePlanStorage {
        let other = ResponsePlanStorage(response: response, status: status)
        other.delayMs = delayMs
        other.fault = fault
        other.streamReset = streamReset
        other.throttleBytesPerSecond = throttleBytesPerSecond
        other.renderedBody = renderedBody
        other.routeID = routeID
        other.route = route
        other.variantName = variantName
        other.selection = selection
        other.sequenceStep = sequenceStep
        other.nearMisses = nearMisses
        other.session = session
        other.operation = operation
        other.scopedPath = scopedPath
        other.journaled = journaled
        other.stream = stream
        other.contract = contract
        other.hold = hold
        other.stepToken = stepToken
        other.unmatched = unmatched
        other.proxied = proxied
        other.range = range
        other.memoryChanges = memoryChanges
        other.awaitsMemory = awaitsMemory
        other.catalog = catalog
        return other
    }
}
