#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Builds one route of a `CaptureLayout`: its template, a variant per distinct response, `when`
/// from what told the requests apart, and a sequence hint where one request got several answers.
struct RouteBuilder {
    let group: ServiceBuilder.Group
    let exchanges: [CapturedExchange]
    let prefixCount: Int
    let policy: SecretPolicy
    /// Query and body values are secret by name and token shape (`SecretShape`).
    var byShape = false

    /// Response headers worth keeping, besides a Content-Type the extension would not give. The
    /// validators (`ETag`, `Last-Modified`) make a replayed revalidation get its `304`.
    static let keptHeaders: Set<String> = ["link", "cache-control", "etag", "last-modified", "location", "retry-after"]

    func build(serviceName: String, report: inout RedactionReport) -> CaptureLayout.Route {
        let first = group.segments[0]
        let remaining = Array(zip(first, group.parameters).dropFirst(prefixCount))
        let path = "/" + remaining.map { segment, name in name.map { "{\($0)}" + (PathTemplating.idSuffix(segment) ?? "") } ?? segment }.joined(separator: "/")
        // A lone id after the basePath names nothing: take the segment before it too (`get-users-2`).
        var named = remaining
        if remaining.count == 1, prefixCount > 0, remaining[0].1 != nil || PathTemplating.looksLikeID(remaining[0].0) {
            named.insert((first[prefixCount - 1], nil), at: 0)
        }
        let folder = PathTemplating.folderName(method: group.method, segments: named.map(\.0),
                                               parameters: named.map { segment, name in name.map { $0 + (PathTemplating.idSuffix(segment) ?? "") } })
        let requests = group.indices.map { exchanges[$0] }
        let rarity = RouteBuilder.queryValueCounts(requests)
        // A value holding `{{` (Postman's `{{$guid}}`, new on each send) would be read as a placeholder.
        let conditions = requests.map { whenConditions($0, rarity: rarity).filter { !$0.value.contains("{{") } }
        let varying = varyingConditionNames(conditions)
        var variants: [CaptureLayout.Variant] = []
        var variantFor: [ResponseKey: String] = [:]
        var sequences: [(key: RequestKey, names: [String])] = []
        // Where each request's sequence is, and the names taken so far: a route of thousands of
        // examples must not search its earlier ones for each new one.
        var sequenceOf: [RequestKey: Int] = [:]
        var names = VariantNames()
        var perStatus: [Int: Int] = [:]
        var firstSuccess: String?
        for (request, allConditions) in zip(requests, conditions) {
            let when = allConditions.filter { $0.kind == "path" || varying.contains("\($0.kind) \($0.name)") }
            let requestKey = requestIdentity(request, when: when)
            var variant = makeVariant(request, report: &report)
            let responseKey = ResponseKey(request: requestKey, status: variant.status, headers: variant.headers.map { "\($0.name): \($0.value)" },
                                          body: request.spooledBody.map { Array($0.identity.utf8) } ?? variant.body)
            if variantFor[responseKey] == nil {
                let count = perStatus[variant.status, default: 0] + 1
                perStatus[variant.status] = count
                variant.name = variant.conversation == nil
                    ? names.name(status: variant.status, count: count, label: request.label)
                    : count == 1 ? "conversation" : "conversation-\(count)"
                names.take(variant.name)
                variant.description = request.label ?? variant.description
                // Only a request's first answer is chosen by `when`; later ones are for sequences.
                variant.when = sequenceOf[requestKey] != nil ? [] : when
                variants.append(variant)
                variantFor[responseKey] = variant.name
            }
            let name = variantFor[responseKey]!
            if firstSuccess == nil, (200...299).contains(request.status) { firstSuccess = name }
            if let index = sequenceOf[requestKey] { sequences[index].names.append(name) } else {
                sequenceOf[requestKey] = sequences.count
                sequences.append((requestKey, [name]))
            }
        }
        // stubd answers with the first variant whose `when` holds: the one asking most goes first.
        variants = variants.enumerated().sorted { ($0.element.when.count, $1.offset) > ($1.element.when.count, $0.offset) }.map(\.element)
        // The answer to the request that named the fewest distinguishing values is the one a
        // request without them gets (the 401 before a header was sent); else the first success.
        let fewest = variants.map { $0.when.filter { $0.kind != "path" }.count }.min() ?? 0
        let plain = variants.filter { $0.when.filter { $0.kind != "path" }.count == fewest }
        let fallback = plain.count < variants.count ? (plain.first { (200...299).contains($0.status) } ?? plain.first)?.name : nil
        let description = [requests.first?.note, sequenceHint(sequences)].compactMap { $0 }.joined(separator: ". ")
        var route = CaptureLayout.Route(folder: group.operation?.name ?? folder, method: group.method, path: path,
                                        description: description.isEmpty ? nil : description,
                                        headers: [], variants: variants, defaultVariant: fallback ?? firstSuccess ?? variants.first?.name)
        route.operation = group.operation
        if requests.contains(where: { $0.webSocketMessages != nil }) {
            route.webSocket = requests.compactMap { $0.responseHeader("Sec-WebSocket-Protocol") }.first.map { [$0] } ?? []
        }
        hoistSharedHeaders(&route)
        return route
    }

    /// Request headers that describe the browser or the connection, not what was asked for.
    static let incidentalHeaders: Set<String> = [
        "accept", "accept-encoding", "accept-language", "user-agent", "connection", "host", "content-length", "content-type", "origin",
        "referer", "cache-control", "pragma", "dnt", "upgrade-insecure-requests", "if-none-match", "if-modified-since", "priority", "te",
        "keep-alive", "x-requested-with", "purpose", "x-forwarded-for", "x-forwarded-proto", "via", "expect",
    ]

    /// For each query name, how many of the requests carry each value.
    static func queryValueCounts(_ requests: [CapturedExchange]) -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        for request in requests {
            var seen = Set<String>()
            for item in request.query where seen.insert(item.name + "=" + item.value).inserted { counts[item.name, default: [:]][item.value, default: 0] += 1 }
        }
        return counts
    }

    /// Path parameters, non-secret query parameters, request headers and top-level body fields
    /// of one request. A query name given several times is matched by the value fewest other
    /// requests share (stubd matches a repeated name when any of its values does).
    func whenConditions(_ request: CapturedExchange, rarity: [String: [String: Int]]) -> [(kind: String, name: String, value: String)] {
        var result: [(kind: String, name: String, value: String)] = []
        let segments = PathTemplating.segments(request.path)
        for (segment, parameter) in zip(segments, group.parameters) where parameter != nil {
            let value = PathTemplating.parameterValue(segment.percentDecoded() ?? segment)
            // A Postman path variable saved without a value (`:paymentPspReference`) names no
            // value: any one answers.
            if value == ":" + parameter!, request.pathVariables.values.contains(parameter!) { continue }
            result.append(("path", parameter!, value))
        }
        var seen = Set<String>()
        for item in request.query where !isSecret(item.name, item.value) && seen.insert(item.name).inserted {
            let values = request.query.filter { $0.name == item.name }.map(\.value)
            let value = values.min { rarity[item.name]?[$0] ?? 0 < rarity[item.name]?[$1] ?? 0 } ?? item.value
            result.append(("query", item.name, value))
        }
        var headers = Set<String>()
        for header in request.requestHeaders {
            let name = header.name.lowercased()
            guard !RouteBuilder.incidentalHeaders.contains(name), !name.hasPrefix("sec-"), !name.hasPrefix(":"), !policy.isSecret(name),
                  headers.insert(name).inserted else { continue }
            result.append(("header", name, header.value))
        }
        // An operation's requests differ by their variables (the query and name are the same).
        if group.operation != nil {
            for (path, value) in GraphQLCapture.variables(of: request) where !GraphQLCapture.isSecret(path, policy: policy) {
                result.append(("variables", path, value))
            }
            return result
        }
        let contentType = request.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value
        for (name, value) in BodyFields.parse(request.requestBody, contentType: contentType).sorted(by: { $0.key < $1.key }) where !isSecret(name, value) {
            result.append(("body", name, value))
        }
        return result
    }

    /// True when a query or body value must not be written (`SecretShape`).
    func isSecret(_ name: String, _ value: String) -> Bool { SecretShape.isSecret(name, value: value, policy: policy, byShape: byShape) }

    /// Query and body names whose value (or presence) differs between the route's requests.
    func varyingConditionNames(_ all: [[(kind: String, name: String, value: String)]]) -> Set<String> {
        var values: [String: Set<String>] = [:]
        for conditions in all {
            for c in conditions where c.kind != "path" { values["\(c.kind) \(c.name)", default: []].insert(c.value) }
        }
        return Set(values.filter { entry in entry.value.count > 1 || all.contains { !$0.contains { "\($0.kind) \($0.name)" == entry.key } } }.keys)
    }

    /// Requests with the same path, query (secrets left out), distinguishing headers and body
    /// are the same request.
    struct RequestKey: Hashable {
        /// `path?query`, as the sequence hint names it.
        let target: String
        let headers: [String]
        let body: [UInt8]
    }

    /// One distinct answer to one request.
    struct ResponseKey: Hashable {
        let request: RequestKey
        let status: Int
        let headers: [String]
        let body: [UInt8]
    }

    func requestIdentity(_ request: CapturedExchange, when: [(kind: String, name: String, value: String)]) -> RequestKey {
        let query = request.query.filter { !isSecret($0.name, $0.value) }.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let headers = when.filter { $0.kind == "header" }.map { "\($0.name): \($0.value)" }
        return RequestKey(target: query.isEmpty ? request.path : request.path + "?" + query, headers: headers, body: request.requestBody)
    }

    /// The variant for a response: its body processed (pretty JSON, secrets out) and kept headers.
    func makeVariant(_ request: CapturedExchange, report: inout RedactionReport) -> CaptureLayout.Variant {
        if let spooled = request.spooledBody { return spooledVariant(request, spooled) }
        if let messages = request.webSocketMessages {
            let (conversation, repeated, unwritten) = ConversationCapture(policy: policy).conversation(messages, report: &report)
            // The body is only the key that tells conversations apart; no file is written.
            var variant = CaptureLayout.Variant(name: "", status: 101, fileExtension: nil, body: conversation.serializedBytes(), headers: [], when: [])
            variant.conversation = conversation
            if repeated > 0 {
                variant.description = "\(repeated) client messages repeated an earlier one and get its answer; the \(unwritten) messages that followed them are not written"
            }
            return variant
        }
        let kind = BodyKind.of(media: request.mediaType, body: request.responseBody)
        var body = request.responseBody
        if case .json = kind, !body.isEmpty {
            body = JSONRewriter(policy: policy, byShape: byShape).rewrite(body, report: &report, place: "response body field")
        }
        let headers = keptHeaders(request, kind: body.isEmpty ? nil : kind)
        return CaptureLayout.Variant(name: "", status: request.status, fileExtension: body.isEmpty ? nil : kind.ext, body: body, headers: headers, when: [])
    }

    /// The variant for a response a recording processed and kept on disk.
    func spooledVariant(_ request: CapturedExchange, _ spooled: SpooledBody) -> CaptureLayout.Variant {
        let kind = spooled.size == 0 ? nil : BodyKind.forExtension(spooled.fileExtension)
        var variant = CaptureLayout.Variant(name: "", status: request.status, fileExtension: kind == nil ? nil : spooled.fileExtension, body: [],
                                            headers: keptHeaders(request, kind: kind), when: [])
        if kind != nil { variant.bodyFile = spooled.path }
        return variant
    }

    /// `Content-Type` when the extension would imply another, and the response headers worth keeping.
    func keptHeaders(_ request: CapturedExchange, kind: BodyKind?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let kind, let type = kind.keptContentType(request.responseHeader("Content-Type") ?? request.mimeType) { headers.append(("Content-Type", type)) }
        var seen = Set<String>()
        for header in request.responseHeaders {
            let lower = header.name.lowercased()
            guard RouteBuilder.keptHeaders.contains(lower) || lower.hasPrefix("x-ratelimit-"), !policy.isSecret(header.name),
                  seen.insert(lower).inserted else { continue }
            headers.append((header.name, header.value))
        }
        return headers
    }

    /// The route's description when a request got several answers: their order, and how to replay it.
    func sequenceHint(_ sequences: [(key: RequestKey, names: [String])]) -> String? {
        let replayed = sequences.filter { Set($0.names).count > 1 }
        guard !replayed.isEmpty else { return nil }
        return replayed.map { s in
            let list = s.names.map { "\"\($0)\"" }.joined(separator: ", ")
            return "The same \(group.method) \(s.key.target) was captured \(s.names.count) times with different responses, in this order: \(s.names.joined(separator: ", ")). Replay them with PUT /__stubd/routes/{route} {\"sequence\": [\(list)]}."
        }.joined(separator: " ")
    }

    /// Headers every variant carries with the same value move to the route.
    func hoistSharedHeaders(_ route: inout CaptureLayout.Route) {
        guard let first = route.variants.first, route.variants.count > 1 else { return }
        let shared = first.headers.filter { header in
            route.variants.allSatisfy { v in v.headers.contains { $0.name.lowercased() == header.name.lowercased() && $0.value == header.value } }
        }
        guard !shared.isEmpty else { return }
        route.headers = shared
        let names = Set(shared.map { $0.name.lowercased() })
        for v in route.variants.indices { route.variants[v].headers.removeAll { names.contains($0.name.lowercased()) } }
    }
}
