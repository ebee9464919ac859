internal import CYAML
import StubCore

/// Reads YAML (1.1, through libyaml's event parser) into the core's `JSONValue`, keeping the
/// line of every value (by JSON pointer) for error messages. Plain scalars are typed the way
/// OpenAPI documents expect: `null`/`~`, `true`/`false`, integers and decimals; quoted scalars
/// are strings. Anchors and aliases are followed.
struct YAMLReader {
    /// A document and where each of its values starts.
    struct Document {
        let value: JSONValue
        /// 1-based line of the value at each JSON pointer (`/paths/~1users/get`).
        let lines: [String: Int]
    }

    /// A problem: the line and what libyaml said.
    struct Problem: Error {
        let line: Int
        let message: String
    }

    static func read(_ bytes: [UInt8]) throws(Problem) -> Document {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Problem(line: 0, message: "libyaml could not start") }
        defer { yaml_parser_delete(&parser) }
        var copy = bytes
        return try copy.withUnsafeMutableBufferPointer { buffer throws(Problem) -> Document in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let reason = parser.problem.map { String(cString: $0) } ?? "not valid YAML"
                    throw Problem(line: Int(parser.problem_mark.line) + 1, message: reason)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try builder.take(event)
            }
            return Document(value: builder.root ?? .null, lines: builder.lines)
        }
    }

    /// Builds values from events with a stack of open mappings and sequences.
    private struct Builder {
        enum Open {
            case mapping(members: [(key: String, value: JSONValue)], pendingKey: String?, anchor: String?, pointer: String)
            case sequence(items: [JSONValue], anchor: String?, pointer: String)
        }
        var stack: [Open] = []
        var root: JSONValue?
        var anchors: [String: JSONValue] = [:]
        var lines: [String: Int] = [:]

        /// The JSON pointer of the next value.
        var nextPointer: String {
            guard let top = stack.last else { return "" }
            switch top {
            case .mapping(_, let key, _, let pointer): return pointer + "/" + (key ?? "").replacing("~", with: "~0").replacing("/", with: "~1")
            case .sequence(let items, _, let pointer): return pointer + "/\(items.count)"
            }
        }

        var expectsKey: Bool {
            if case .mapping(_, nil, _, _)? = stack.last { return true }
            return false
        }

        mutating func take(_ event: yaml_event_t) throws(Problem) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                if expectsKey {
                    guard case .mapping(let members, _, let anchor, let pointer) = stack.removeLast() else { return }
                    stack.append(.mapping(members: members, pendingKey: text, anchor: anchor, pointer: pointer))
                    return
                }
                let value = s.style == YAML_PLAIN_SCALAR_STYLE ? YAMLReader.typed(text) : .string(text)
                lines[nextPointer] = line
                if let anchor = s.anchor { anchors[String(cString: anchor)] = value }
                add(value)
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                guard let value = anchors[name] else { throw Problem(line: line, message: "unknown alias *\(name)") }
                if expectsKey {
                    guard case .mapping(let members, _, let anchor, let pointer) = stack.removeLast() else { return }
                    stack.append(.mapping(members: members, pendingKey: value.scalarText ?? "", anchor: anchor, pointer: pointer))
                    return
                }
                add(value)
            case YAML_MAPPING_START_EVENT:
                let pointer = nextPointer
                lines[pointer] = line
                stack.append(.mapping(members: [], pendingKey: nil, anchor: event.data.mapping_start.anchor.map { String(cString: $0) }, pointer: pointer))
            case YAML_SEQUENCE_START_EVENT:
                let pointer = nextPointer
                lines[pointer] = line
                stack.append(.sequence(items: [], anchor: event.data.sequence_start.anchor.map { String(cString: $0) }, pointer: pointer))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                let value: JSONValue
                let anchor: String?
                switch stack.removeLast() {
                case .mapping(let members, _, let a, _): value = .object(members); anchor = a
                case .sequence(let items, let a, _): value = .array(items); anchor = a
                }
                if let anchor { anchors[anchor] = value }
                add(value)
            default:
                return
            }
        }

        mutating func add(_ value: JSONValue) {
            guard let top = stack.popLast() else { root = value; return }
            switch top {
            case .mapping(var members, let key, let anchor, let pointer):
                // `<<` merge keys: the aliased mapping's members, where not set here.
                if key == "<<", case .object(let merged) = value {
                    for member in merged where !members.contains(where: { $0.key == member.key }) { members.append(member) }
                } else {
                    members.append((key ?? "", value))
                }
                stack.append(.mapping(members: members, pendingKey: nil, anchor: anchor, pointer: pointer))
            case .sequence(var items, let anchor, let pointer):
                items.append(value)
                stack.append(.sequence(items: items, anchor: anchor, pointer: pointer))
            }
        }
    }

    /// A plain scalar's value: null, a boolean, a number, or the text.
    static func typed(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        let numberLike = text.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? false
        if numberLike, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }), let n = Double(text) { return .number(n) }
        return .string(text)
    }
}
