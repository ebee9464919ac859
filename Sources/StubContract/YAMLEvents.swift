internal import CYAML

/// libyaml's event parser over one buffer: the one adapter for a `yaml_parser_t`, which owns a
/// copy of the input (libyaml reads it in place) and frees both in `deinit`.
final class YAMLEvents {
    /// One parse event, in Swift's terms.
    enum Event {
        /// A scalar: its text, whether it was plain (unquoted, untagged-typed), its tag and anchor.
        case scalar(text: String, plain: Bool, tag: String?, anchor: String?)
        /// `*name`.
        case alias(String)
        /// The start of a mapping, with its anchor.
        case mappingStart(anchor: String?)
        /// The start of a sequence, with its anchor.
        case sequenceStart(anchor: String?)
        /// The end of the innermost mapping or sequence.
        case end
        /// The end of the first document: nothing after it is read.
        case documentEnd
    }

    /// A syntax error: the line and libyaml's words.
    struct SyntaxError: Error {
        let line: Int
        let message: String
    }

    private var parser = yaml_parser_t()
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var started = false
    /// The 1-based line of the event `next()` returned last.
    private(set) var line = 0

    init(_ bytes: [UInt8]) {
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        started = yaml_parser_initialize(&parser) == 1
        if started { yaml_parser_set_input_string(&parser, input.baseAddress, bytes.count) }
    }

    deinit {
        if started { yaml_parser_delete(&parser) }
        input.deallocate()
    }

    /// The next event that matters; `.documentEnd` at the end of the first document or stream.
    func next() throws(SyntaxError) -> Event {
        guard started else { throw SyntaxError(line: 0, message: "libyaml could not start") }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let reason = parser.problem.map { String(cString: $0) } ?? "not valid YAML"
                throw SyntaxError(line: Int(parser.problem_mark.line) + 1, message: reason)
            }
            defer { yaml_event_delete(&event) }
            line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                return .scalar(text: text, plain: s.style == YAML_PLAIN_SCALAR_STYLE, tag: s.tag.map { String(cString: $0) },
                               anchor: s.anchor.map { String(cString: $0) })
            case YAML_ALIAS_EVENT: return .alias(String(cString: event.data.alias.anchor))
            case YAML_MAPPING_START_EVENT: return .mappingStart(anchor: event.data.mapping_start.anchor.map { String(cString: $0) })
            case YAML_SEQUENCE_START_EVENT: return .sequenceStart(anchor: event.data.sequence_start.anchor.map { String(cString: $0) })
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: return .end
            case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT: return .documentEnd
            default: continue
            }
        }
    }
}
