#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Reads a Pact file (specification 2, 3 or 4, HTTP interactions) into exchanges: each
/// interaction's request and response, labelled with its provider state (else its description),
/// so the state names a variant that a header or `POST /__stubd/pact/state` selects. A path with a
/// regex matching rule keeps as parameters the segments the regex does not spell out.
package enum PactReader {
    /// What a pact file holds.
    package struct Result: Sendable {
        /// The interactions, in the file's order.
        package var exchanges: [CapturedExchange] = []
        /// Interactions left out, by reason.
        package var skipped: [String: Int] = [:]
        /// The provider's name.
        package var provider = "provider"
        /// The service folder the provider's name gives.
        package var service: String { PathTemplating.serviceName(host: provider.lowercased()) }
    }

    package static func read(_ bytes: [UInt8], file: String) throws(HARReader.Problem) -> Result {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw HARReader.Problem(file: file, path: "\(error.line):\(error.column)", message: "not valid JSON: \(error.message)")
        }
        guard case .array(let interactions)? = root["interactions"] else {
            throw HARReader.Problem(file: file, path: "interactions", message: "expected an array of interactions (a Pact file)")
        }
        var result = Result()
        result.provider = root["provider"]?["name"]?.scalarText ?? "provider"
        let host = PathTemplating.serviceName(host: result.provider.lowercased())
        for (index, interaction) in interactions.enumerated() {
            if let type = interaction["type"]?.scalarText, type != "Synchronous/HTTP" {
                result.skipped["\(type) interaction", default: 0] += 1
                continue
            }
            let at = "interactions[\(index)]"
            guard let request = interaction["request"], let response = interaction["response"] else {
                throw HARReader.Problem(file: file, path: at, message: "expected a request and a response")
            }
            guard let method = request["method"]?.scalarText?.uppercased(), RouteLoader.methods.contains(method) else {
                result.skipped["method not stubbed", default: 0] += 1
                continue
            }
            guard let path = request["path"]?.scalarText, path.hasPrefix("/") else {
                throw HARReader.Problem(file: file, path: at + ".request.path", message: "expected a path starting with /")
            }
            let status = try HARReader.status(response["status"], file: file, at: at + ".response.status")
            let responseHeaders = headers(response["headers"])
            var exchange = CapturedExchange(method: method, scheme: "https", host: host, path: path, query: query(request["query"]),
                                            requestHeaders: headers(request["headers"]), requestBody: body(request["body"]), status: status,
                                            responseHeaders: responseHeaders, responseBody: body(response["body"]),
                                            mimeType: responseHeaders.first { $0.name.lowercased() == "content-type" }?.value)
            let description = interaction["description"]?.scalarText ?? "interaction \(index + 1)"
            exchange.label = state(interaction) ?? description
            exchange.note = "Pact: \(description)"
            exchange.pathVariables = parameters(path, regex: pathRegex(request["matchingRules"]))
            result.exchanges.append(exchange)
        }
        return result
    }

    /// The first provider state's name (`providerStates` in Pact 3 and 4, `providerState` in 2).
    static func state(_ interaction: JSONValue) -> String? {
        if case .array(let states)? = interaction["providerStates"], let name = states.first?["name"]?.scalarText { return name }
        return interaction["providerState"]?.scalarText ?? interaction["provider_state"]?.scalarText
    }

    /// Pact 3's `{"name": ["value"]}` or Pact 2's `"a=1&b=2"`.
    static func query(_ value: JSONValue?) -> [(name: String, value: String)] {
        switch value {
        case .string(let text)?: return HARURL.decodeQuery(text)
        case .object(let members)?:
            return members.flatMap { name, values -> [(name: String, value: String)] in
                if case .array(let list) = values { return list.compactMap(\.scalarText).map { (name, $0) } }
                return values.scalarText.map { [(name, $0)] } ?? []
            }
        default: return []
        }
    }

    /// `{"Name": "value"}` (or a list of values, Pact 4).
    static func headers(_ value: JSONValue?) -> [(name: String, value: String)] {
        guard case .object(let members)? = value else { return [] }
        return members.flatMap { name, values -> [(name: String, value: String)] in
            if case .array(let list) = values { return list.compactMap(\.scalarText).map { (name, $0) } }
            return values.scalarText.map { [(name, $0)] } ?? []
        }
    }

    /// A body: JSON as its text, a string as is, Pact 4's `{"content": …}` unwrapped.
    static func body(_ value: JSONValue?) -> [UInt8] {
        guard let value else { return [] }
        if case .object = value, let content = value["content"], value["contentType"] != nil || value["encoded"] != nil {
            if case .string(let text) = content {
                if value["encoded"]?.scalarText == "base64", let data = Data(base64Encoded: text) { return Array(data) }
                return Array(text.utf8)
            }
            return Array(content.serialized().utf8)
        }
        switch value {
        case .string(let text): return Array(text.utf8)
        case .null: return []
        default: return Array(value.serialized().utf8)
        }
    }

    /// The regex a path matching rule gives (Pact 3 and 4's `{"path": {"matchers": [{"regex"}]}}`,
    /// Pact 2's `{"$.path": {"regex"}}`).
    static func pathRegex(_ rules: JSONValue?) -> String? {
        if case .array(let matchers)? = rules?["path"]?["matchers"] {
            return matchers.lazy.compactMap { $0["regex"]?.scalarText }.first
        }
        return rules?["$.path"]?["regex"]?.scalarText
    }

    /// The places of the path's segments the regex does not spell out, named after the segment
    /// before (`/users/1` under `^/users/[0-9]+$` → `userId` at 1).
    static func parameters(_ path: String, regex: String?) -> [Int: String] {
        guard let regex else { return [:] }
        let pattern = regex.trimming { $0 == "^" || $0 == "$" }
        let wanted = pattern.split(separator: "/", omittingEmptySubsequences: true).map { $0.replacing("\\", with: "") }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard wanted.count == segments.count else { return [:] }
        var names: [Int: String] = [:]
        for (index, (want, segment)) in zip(wanted, segments).enumerated() where want != segment {
            let name = PathTemplating.parameterName(after: index > 0 ? segments[index - 1] : nil)
            names[index] = name.isEmpty || names.values.contains(name) ? "p\(index)" : name
        }
        return names
    }
}
