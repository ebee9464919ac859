#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A service's error shape: a JSON template whose strings may hold `{{title}}`, `{{message}}`, `{{code}}`, `{{status}}`.
package struct ErrorEnvelope: Sendable, Equatable {
    /// The variables a template may use.
    package static let knownVariables = ["title", "message", "code", "status"]

    /// The template as written in `_service.json`.
    package let template: JSONValue

    /// Makes an envelope from a template.
    package init(template: JSONValue) {
        self.template = template
    }

    /// Every `{{name}}` the template refers to, in first-use order.
    package var variables: [String] {
        var names: [String] = []
        func visit(_ v: JSONValue) {
            switch v {
            case .string(let s):
                for name in ErrorEnvelope.references(in: s) where !names.contains(name) { names.append(name) }
            case .array(let items): items.forEach(visit)
            case .object(let members): members.forEach { visit($0.value) }
            default: break
            }
        }
        visit(template)
        return names
    }

    /// Renders the template; a string that is exactly `{{status}}` becomes a number.
    package func render(_ values: [String: String], status: Int) -> JSONValue {
        func fill(_ v: JSONValue) -> JSONValue {
            switch v {
            case .string(let s):
                let spans = ErrorEnvelope.spans(in: s)
                if spans.count == 1, spans[0].name == "status", s[spans[0].range] == s[...] { return .number(Double(status)) }
                var out = ""
                var cursor = s.startIndex
                for span in spans {
                    out += s[cursor..<span.range.lowerBound]
                    out += span.name == "status" ? String(status) : (values[span.name] ?? "")
                    cursor = span.range.upperBound
                }
                return .string(out + s[cursor...])
            case .array(let items): return .array(items.map(fill))
            case .object(let members): return .object(members.map { ($0.key, fill($0.value)) })
            default: return v
            }
        }
        return fill(template)
    }

    /// Each `{{ name }}` in `s`: its range (braces included) and the trimmed name.
    static func spans(in s: String) -> [(range: Range<String.Index>, name: String)] {
        var found: [(range: Range<String.Index>, name: String)] = []
        var rest = s[...]
        while let open = PathText.range(of: "{{", in: rest) {
            guard let close = PathText.range(of: "}}", in: rest[open.upperBound...]) else { break }
            found.append((open.lowerBound..<close.upperBound, PathText.trimmed(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func references(in s: String) -> [String] {
        spans(in: s).map(\.name)
    }
}
