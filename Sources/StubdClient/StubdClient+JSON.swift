import Foundation

extension StubdClient {
    /// Any JSON value: state values and collection objects read or written by a test that has no
    /// type of its own for them. Written as a literal (`["password": "s3cret", "logins": 2]`) and
    /// compared with one (`state["app"]?["loggedIn"] == true`).
    public enum JSON: Codable, Sendable, Hashable, CustomStringConvertible,
        ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
        ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// Every JSON number; a whole one is written without a fraction.
        case number(Double)
        /// A string.
        case string(String)
        /// An array, in order.
        case array([JSON])
        /// An object, by member name.
        case object([String: JSON])

        /// A member of an object; nil for a missing name or a value that is not an object.
        public subscript(key: String) -> JSON? {
            if case .object(let members) = self { return members[key] }
            return nil
        }

        /// An element of an array; nil out of range or for a value that is not an array.
        public subscript(index: Int) -> JSON? {
            if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
            return nil
        }

        /// Reads any JSON value.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let value = try? c.decode(Bool.self) { self = .bool(value) }
            else if let value = try? c.decode(Double.self) { self = .number(value) }
            else if let value = try? c.decode(String.self) { self = .string(value) }
            else if let value = try? c.decode([JSON].self) { self = .array(value) }
            else { self = .object(try c.decode([String: JSON].self)) }
        }

        /// Writes the value; a whole number as an integer, so that an id stays `3`, not `3.0`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case .bool(let value): try c.encode(value)
            case .number(let value):
                if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { try c.encode(Int64(value)) } else { try c.encode(value) }
            case .string(let value): try c.encode(value)
            case .array(let value): try c.encode(value)
            case .object(let value): try c.encode(value)
            }
        }

        /// The value as compact JSON text, members sorted.
        public var description: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }

        public init(nilLiteral: ()) { self = .null }
        public init(booleanLiteral value: Bool) { self = .bool(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(stringLiteral value: String) { self = .string(value) }
        public init(arrayLiteral elements: JSON...) { self = .array(elements) }
        /// An object; a name given twice keeps its last value.
        public init(dictionaryLiteral elements: (String, JSON)...) {
            self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
        }
    }
}
