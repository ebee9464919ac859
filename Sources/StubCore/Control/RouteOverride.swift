/// A sticky admin override for one route, and an optional sequence of variants to serve first.
public struct RouteOverride: Sendable, Equatable {
    /// A variant served until cleared.
    public var variant: String?
    /// A delay that beats the stub files.
    public var delay: DelaySpec?
    /// A fault served until cleared.
    public var fault: Fault?
    /// Bytes per second to send bodies at, until cleared.
    public var throttleBytesPerSecond: Int?
    /// Variants served in order to the next requests, one each; then normal selection resumes.
    public var sequence: [String]
    /// How many sequence steps have been served.
    public var served: Int
    /// Hold every matching request before its response until released (`{"hold": true}`).
    public var hold = false
    /// Names this sequence's step counter in a fleet's store, so each step is taken once across
    /// replicas; a sequence set again gets a new one. Nil outside a fleet.
    package var stepToken: String?

    /// Makes an override.
    public init(variant: String? = nil, delay: DelaySpec? = nil, fault: Fault? = nil, throttleBytesPerSecond: Int? = nil,
                sequence: [String] = [], served: Int = 0) {
        self.variant = variant
        self.delay = delay
        self.fault = fault
        self.throttleBytesPerSecond = throttleBytesPerSecond
        self.sequence = sequence
        self.served = served
    }

    /// Sequence steps not yet served.
    public var remaining: [String] { Array(sequence.dropFirst(served)) }

    /// The form a fleet's store keeps: what `PUT /__stubd/routes/{route}` takes, only the keys set.
    package var storedJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let variant { members.append(("variant", .string(variant))) }
        if let delay { members.append(("delay", delay.json)) }
        if let fault { members.append(("fault", .string(fault.rawValue))) }
        if let throttleBytesPerSecond { members.append(("throttle", .object([("bytesPerSecond", .number(Double(throttleBytesPerSecond)))]))) }
        if !sequence.isEmpty { members.append(("sequence", .array(sequence.map { .string($0) }))) }
        members.append(("hold", .bool(hold)))
        return .object(members)
    }

    /// Reads the form `storedJSON` writes; nil when it is not one.
    package static func stored(_ bytes: [UInt8]) -> RouteOverride? {
        guard case .success(let o) = AdminOverrideParser.parse(bytes) else { return nil }
        return o
    }

    /// The JSON form the admin API shows.
    package var json: JSONValue {
        .object([
            ("variant", variant.map { .string($0) } ?? .null),
            ("delay", delay?.json ?? .null),
            ("fault", fault.map { .string($0.rawValue) } ?? .null),
            ("throttle", throttleBytesPerSecond.map { .object([("bytesPerSecond", .number(Double($0)))]) } ?? .null),
            ("sequence", .array(sequence.map { .string($0) })),
            ("sequenceRemaining", .array(remaining.map { .string($0) })),
            ("hold", .bool(hold)),
        ])
    }
}
