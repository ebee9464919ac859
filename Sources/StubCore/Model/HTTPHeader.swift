/// A response header as sent on the wire.
public struct HTTPHeader: Sendable, Equatable {
    /// Header name as written in the stub.
    public var name: String
    /// Header value.
    public var value: String

    /// Makes a header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// Sets `name` to `value`, replacing any header of that name regardless of case.
    public mutating func set(_ name: String, _ value: String) {
        removeAll { ASCIICase.equal($0.name, name) }
        append(HTTPHeader(name, value))
    }

    /// The value of the first header called `name` regardless of case.
    public func value(of name: String) -> String? {
        first { ASCIICase.equal($0.name, name) }?.value
    }
}
