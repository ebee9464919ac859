import StubCore

extension YAMLReader {
    /// Builds values from events with a stack of open mappings and sequences, counting what
    /// aliases and merges add against the limits.
    struct Builder {
        struct Frame {
            let isMapping: Bool
            let anchor: String?
            var members: [(key: String, value: JSONValue)] = []
            var items: [JSONValue] = []
            /// Key positions, built once a mapping grows past a few keys (merges make long ones).
            var index: [String: Int] = [:]
            /// Members that came from a `<<` merge: an explicit key replaces them.
            var merged: Set<Int> = []
            var pendingKey: String?
            /// This node and everything inside it, as if aliases were copied out.
            var nodes = 1
        }

        let limits: Limits
        var stack: [Frame] = []
        var root: JSONValue?
        var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
        var aliasNodes = 0

        init(limits: Limits) { self.limits = limits }

        mutating func take(_ event: YAMLEvents.Event, line: Int) throws(Problem) {
            switch event {
            case .scalar(let text, let plain, let tag, let anchor):
                if let top = stack.last, top.isMapping, top.pendingKey == nil {
                    stack[stack.count - 1].pendingKey = text
                    return
                }
                let value = YAMLReader.scalar(text, plain: plain, tag: tag)
                if let anchor { anchors[anchor] = (value, 1) }
                try add(value, nodes: 1, line: line)
            case .alias(let name):
                guard let target = anchors[name] else { throw Problem(line: line, message: "unknown alias *\(name)") }
                aliasNodes += target.nodes
                guard aliasNodes <= limits.aliasNodes else {
                    throw Problem(line: line, message: "aliases expand to more than \(limits.aliasNodes) nodes; refused (a YAML bomb?)", overLimit: true)
                }
                if let top = stack.last, top.isMapping, top.pendingKey == nil {
                    guard let key = target.value.scalarText else { throw Problem(line: line, message: "a mapping key must be a scalar") }
                    stack[stack.count - 1].pendingKey = key
                    return
                }
                try add(target.value, nodes: target.nodes, line: line)
            case .mappingStart(let anchor), .sequenceStart(let anchor):
                if let top = stack.last, top.isMapping, top.pendingKey == nil {
                    throw Problem(line: line, message: "a mapping key must be a scalar, found a \(event.isMapping ? "mapping" : "sequence")")
                }
                guard stack.count < limits.depth else { throw Problem(line: line, message: "nesting deeper than \(limits.depth) levels; refused", overLimit: true) }
                stack.append(Frame(isMapping: event.isMapping, anchor: anchor))
            case .end:
                let frame = stack.removeLast()
                let value: JSONValue = frame.isMapping ? .object(frame.members) : .array(frame.items)
                if let anchor = frame.anchor { anchors[anchor] = (value, frame.nodes) }
                try add(value, nodes: frame.nodes, line: line)
            case .documentEnd:
                return
            }
        }

        mutating func add(_ value: JSONValue, nodes: Int, line: Int) throws(Problem) {
            guard !stack.isEmpty else { root = value; return }
            let top = stack.count - 1
            stack[top].nodes += nodes
            guard stack[top].isMapping else {
                stack[top].items.append(value)
                return
            }
            let key = stack[top].pendingKey ?? ""
            stack[top].pendingKey = nil
            if key == "<<" {
                try merge(value, line: line)
                return
            }
            if let at = stack[top].position(of: key) {
                guard stack[top].merged.remove(at) != nil else { throw Problem(line: line, message: "duplicate key \"\(key)\"") }
                stack[top].members[at].value = value
                return
            }
            stack[top].append(key, value)
        }

        /// `<<: *base` or `<<: [*a, *b]`: members not set here, earlier mappings first.
        mutating func merge(_ value: JSONValue, line: Int) throws(Problem) {
            let sources: [JSONValue]
            switch value {
            case .object: sources = [value]
            case .array(let list): sources = list
            default: throw Problem(line: line, message: "a << merge key takes a mapping or a list of mappings, found \(value.kindDescription)")
            }
            let top = stack.count - 1
            for source in sources {
                guard case .object(let members) = source else {
                    throw Problem(line: line, message: "a << merge key takes mappings, found \(source.kindDescription)")
                }
                aliasNodes += members.count
                guard aliasNodes <= limits.aliasNodes else {
                    throw Problem(line: line, message: "merge keys expand to more than \(limits.aliasNodes) nodes; refused (a YAML bomb?)", overLimit: true)
                }
                for member in members where stack[top].position(of: member.key) == nil {
                    stack[top].merged.insert(stack[top].members.count)
                    stack[top].append(member.key, member.value)
                }
            }
        }
    }

    /// A scalar's value: a tag says what it is; a plain scalar is typed; a quoted one is text.
    static func scalar(_ text: String, plain: Bool, tag: String?) -> JSONValue {
        switch tag {
        case "tag:yaml.org,2002:str"?: return .string(text)
        case "tag:yaml.org,2002:int"?, "tag:yaml.org,2002:float"?, "tag:yaml.org,2002:bool"?, "tag:yaml.org,2002:null"?: return typed(text)
        default: return plain ? typed(text) : .string(text)
        }
    }
}

extension YAMLReader.Builder.Frame {
    func position(of key: String) -> Int? {
        if members.count <= 8 { return members.firstIndex { $0.key == key } }
        return index[key]
    }

    mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if members.count == 9 {
            for (i, member) in members.enumerated() { index[member.key] = i }
        } else if members.count > 9 {
            index[key] = members.count - 1
        }
    }
}

extension YAMLEvents.Event {
    var isMapping: Bool {
        if case .mappingStart = self { return true }
        return false
    }
}
