#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Reads a Postman collection (format v2.0 or v2.1) into exchanges, one per saved example: the
/// example's original request (or the item's request) and its response, with `{{variables}}`
/// resolved from the collection and an environment, and `:name` path variables as parameters.
/// Folders are walked in order; a request without an example is named in `unstubbed`.
package struct PostmanReader {
    /// What a collection holds.
    package struct Result: Sendable {
        /// The examples, in the collection's order.
        package var exchanges: [CapturedExchange] = []
        /// Examples and requests left out, by reason.
        package var skipped: [String: Int] = [:]
        /// Each request or example left out, with where it is and why (`Users / Get user: no saved example`).
        package var unstubbed: [String] = []
        /// What the import assumed, one line each: an example's status read from its status text,
        /// an undefined host variable taken as the base.
        package var notes: [String] = []
        /// Credentials the collection names (auth blocks, variables of type secret), to scrub.
        package var secrets: [(place: String, name: String, value: String)] = []
        /// Undefined host variables (`baseUrl`), the host used for them and how many examples.
        var undefinedHosts: [(names: String, host: String, count: Int)] = []
    }

    let file: String
    /// Variable values: the collection's, then the environment's over them (Postman's order).
    let variables: [String: String]

    /// Reads the collection in `bytes` (`file` names it in problems); `environment` is a Postman
    /// environment export whose values beat the collection's variables; `policy` names the auth
    /// settings that are credentials.
    package static func read(_ bytes: [UInt8], file: String, environment: (bytes: [UInt8], file: String)? = nil,
                             policy: SecretPolicy = SecretPolicy()) throws(HARReader.Problem) -> Result {
        let root = try parse(bytes, file: file)
        guard case .array(let items)? = root["item"] else {
            throw HARReader.Problem(file: file, path: "item", message: "expected an array of items (a Postman collection, format v2.0 or v2.1)")
        }
        var variables = PostmanReader.values(root["variable"], enabledKey: "disabled", enabledWhen: false)
        var secrets = PostmanReader.secretValues(root["variable"], place: "Postman collection variable")
        if let environment {
            let env = try parse(environment.bytes, file: environment.file)
            guard case .array? = env["values"] else {
                throw HARReader.Problem(file: environment.file, path: "values", message: "expected an array of values (a Postman environment export)")
            }
            variables.merge(PostmanReader.values(env["values"], enabledKey: "enabled", enabledWhen: true)) { _, environment in environment }
            secrets += PostmanReader.secretValues(env["values"], place: "Postman environment value")
        }
        var result = Result()
        let reader = PostmanReader(file: file, variables: variables)
        try reader.walk(items, at: "item", folders: [], into: &result)
        result.secrets = secrets + reader.authSecrets(in: root, policy: policy)
        result.notes += result.undefinedHostLines
        return result
    }

    private static func parse(_ bytes: [UInt8], file: String) throws(HARReader.Problem) -> JSONValue {
        do { return try JSONParser.parse(bytes) } catch {
            throw HARReader.Problem(file: file, path: "\(error.line):\(error.column)", message: "not valid JSON: \(error.message)")
        }
    }

    /// `[{key, value}]` as a dictionary, leaving out entries switched off (`disabled: true` in a
    /// collection, `enabled: false` in an environment).
    static func values(_ list: JSONValue?, enabledKey: String, enabledWhen: Bool) -> [String: String] {
        guard case .array(let entries)? = list else { return [:] }
        var values: [String: String] = [:]
        for entry in entries {
            guard let key = entry["key"]?.scalarText else { continue }
            if case .bool(let flag)? = entry[enabledKey], flag != enabledWhen { continue }
            values[key] = entry["value"]?.scalarText ?? ""
        }
        return values
    }

    private func walk(_ items: [JSONValue], at: String, folders: [String], into result: inout Result) throws(HARReader.Problem) {
        for (index, item) in items.enumerated() {
            let path = "\(at)[\(index)]"
            let name = item["name"]?.scalarText ?? "item \(index)"
            if case .array(let children)? = item["item"] {
                try walk(children, at: path + ".item", folders: folders + [name], into: &result)
                continue
            }
            let place = (folders + [name]).joined(separator: " / ")
            guard let request = item["request"] else {
                result.skip("no request", place)
                continue
            }
            guard case .array(let examples)? = item["response"], !examples.isEmpty else {
                result.skip("no saved example", place)
                continue
            }
            for (number, example) in examples.enumerated() {
                let label = example["name"]?.scalarText ?? "example \(number + 1)"
                var notes = ExampleNotes()
                switch try exchange(example, request: example["originalRequest"] ?? request, at: "\(path).response[\(number)]", notes: &notes) {
                case .kept(var exchange):
                    if let rule = notes.statusRule { result.notes.append("\(place) / \(label): no code; status \(exchange.status) from \(rule)") }
                    if let undefined = notes.undefinedHost { result.countUndefinedHost(undefined.names, host: undefined.host) }
                    exchange.label = label
                    exchange.note = "Postman: \(place)"
                    result.exchanges.append(exchange)
                case .skipped(let reason): result.skip(reason, "\(place) / \(label)")
                }
            }
        }
    }
}

extension PostmanReader.Result {
    /// Counts one example kept under the host standing for undefined variables.
    mutating func countUndefinedHost(_ names: [String], host: String) {
        let key = names.joined(separator: "}}, {{")
        if let index = undefinedHosts.firstIndex(where: { $0.names == key }) { undefinedHosts[index].count += 1 } else {
            undefinedHosts.append((key, host, 1))
        }
    }

    /// Counts one left out for `reason` and names it.
    mutating func skip(_ reason: String, _ place: String) {
        skipped[reason, default: 0] += 1
        unstubbed.append("\(place): \(reason)")
    }
}
