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
