#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keywords of one kind of value: numbers, strings, arrays, objects; and how values are shown.
extension SchemaValidator {
    func numberProblems(_ n: Double, _ schema: JSONValue, _ path: String) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        let shown = JSONValue.number(n).serialized()
        if case .number(let min)? = schema["minimum"] {
            if schema["exclusiveMinimum"] == .bool(true), n <= min { problems.append(.init(path: path, message: "expected more than \(Self.show(.number(min))), found \(shown)")) }
            else if n < min { problems.append(.init(path: path, message: "expected at least \(Self.show(.number(min))), found \(shown)")) }
        }
        if case .number(let max)? = schema["maximum"] {
            if schema["exclusiveMaximum"] == .bool(true), n >= max { problems.append(.init(path: path, message: "expected less than \(Self.show(.number(max))), found \(shown)")) }
            else if n > max { problems.append(.init(path: path, message: "expected at most \(Self.show(.number(max))), found \(shown)")) }
        }
        if case .number(let min)? = schema["exclusiveMinimum"], n <= min { problems.append(.init(path: path, message: "expected more than \(Self.show(.number(min))), found \(shown)")) }
        if case .number(let max)? = schema["exclusiveMaximum"], n >= max { problems.append(.init(path: path, message: "expected less than \(Self.show(.number(max))), found \(shown)")) }
        switch schema["format"]?.scalarText {
        case "int32"? where n < -2_147_483_648 || n > 2_147_483_647 || n.rounded() != n: problems.append(.init(path: path, message: "\(shown) is not an int32"))
        case "int64"? where abs(n) > 9.3e18 || n.rounded() != n: problems.append(.init(path: path, message: "\(shown) is not an int64"))
        default: break
        }
        return problems
    }

    func stringProblems(_ s: String, _ schema: JSONValue, _ path: String) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if case .number(let min)? = schema["minLength"], Double(s.count) < min {
            problems.append(.init(path: path, message: "expected at least \(Int(min)) characters, found \(s.count)"))
        }
        if case .number(let max)? = schema["maxLength"], Double(s.count) > max {
            problems.append(.init(path: path, message: "expected at most \(Int(max)) characters, found \(s.count)"))
        }
        if case .string(let pattern)? = schema["pattern"], let regex = try? Regex(pattern), (try? regex.firstMatch(in: s)) == nil {
            problems.append(.init(path: path, message: "\(Self.show(.string(s))) does not match the pattern \(pattern)"))
        }
        if let format = schema["format"]?.scalarText, !StringFormats.holds(format, s) {
            problems.append(.init(path: path, message: "\(Self.show(.string(s))) is not a valid \(format)"))
        }
        return problems
    }

    func arrayProblems(_ items: [JSONValue], _ schema: JSONValue, _ path: String, depth: Int) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if case .number(let min)? = schema["minItems"], Double(items.count) < min {
            problems.append(.init(path: path, message: "expected at least \(Int(min)) items, found \(items.count)"))
        }
        if case .number(let max)? = schema["maxItems"], Double(items.count) > max {
            problems.append(.init(path: path, message: "expected at most \(Int(max)) items, found \(items.count)"))
        }
        if let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() { problems += validate(item, itemSchema, "\(path)[\(index)]", depth: depth + 1) }
        }
        return problems
    }

    func objectProblems(_ members: [(key: String, value: JSONValue)], _ schema: JSONValue, _ path: String, depth: Int) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if case .array(let required)? = schema["required"] {
            for case .string(let key) in required where !members.contains(where: { $0.key == key }) {
                problems.append(.init(path: path, message: "missing required key \"\(key)\""))
            }
        }
        let properties: [(key: String, value: JSONValue)]
        if case .object(let p)? = schema["properties"] { properties = p } else { properties = [] }
        for (key, value) in members {
            let child = Self.child(path, key)
            if let property = properties.first(where: { $0.key == key }) {
                problems += validate(value, property.value, child, depth: depth + 1)
            } else if let extra = schema["additionalProperties"] {
                if extra == .bool(false) { problems.append(.init(path: child, message: "unexpected key \"\(key)\"")) }
                else { problems += validate(value, extra, child, depth: depth + 1) }
            }
        }
        return problems
    }

    static func child(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.string(key).serialized())]"
    }

    /// A value for a message: scalars as JSON, containers by kind.
    package static func show(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.kindDescription
        default:
            let text = value.serialized()
            return text.count > 60 ? String(text.prefix(57)) + "…" : text
        }
    }

    /// JSON equality with numbers compared by value and objects regardless of key order.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && same($0.value, m.value) } }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default: return a == b
        }
    }
}

/// The string formats OpenAPI documents use most.
enum StringFormats {
    static func holds(_ format: String, _ s: String) -> Bool {
        switch format {
        case "date-time": return ISO8601.parse(s) != nil
        case "date": return date(s)
        case "uuid": return UUID(uuidString: s) != nil
        case "email":
            let parts = s.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
                && !s.contains(where: { $0.isWhitespace })
        case "uri":
            guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
            return s[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) } && s[s.startIndex].isLetter
        default: return true
        }
    }

    static func date(_ s: String) -> Bool {
        let parts = s.split(separator: "-")
        guard s.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), parts[0].count == 4 else { return false }
        let days = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(m) && (1...days[m - 1]).contains(d)
    }
}
