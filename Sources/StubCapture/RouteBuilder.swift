import Foundation
import StubCore

/// Builds one route of a `CaptureLayout`: its template, a variant per distinct response, `when`
/// from what told the requests apart, and a sequence hint where one request got several answers.
struct RouteBuilder {
    let group: ServiceBuilder.Group
    let exchanges: [CapturedExchange]
    let prefixCount: Int
    let policy: SecretPolicy

    /// Response headers worth keeping, besides a Content-Type the extension would not give.
    static let keptHeaders: Set<String> = ["link", "cache-control", "etag", "location", "retry-after"]

    func build(serviceName: String, report: inout RedactionReport) -> CaptureLayout.Route {
        let first = group.segments[0]
        let remaining = Array(zip(first, group.parameters).dropFirst(prefixCount))
        let path = "/" + remaining.map { $0.1.map { "{\($0)}" } ?? $0.0 }.joined(separator: "/")
        // A lone id after the basePath names nothing: take the segment before it too (`get-users-2`).
        var named = remaining
        if remaining.count == 1, prefixCount > 0, remaining[0].1 != nil || PathTemplating.looksLikeID(remaining[0].0) {
            named.insert((first[prefixCount - 1], nil), at: 0)
        }
        let folder = PathTemplating.folderName(method: group.method, segments: named.map(\.0), parameters: named.map(\.1))
        let requests = group.indices.map { exchanges[$0] }
        let conditions = requests.map { whenConditions($0) }
        let varying = varyingConditionNames(conditions)
        var variants: [CaptureLayout.Variant] = []
        var variantFor: [ResponseKey: String] = [:]
        var sequences: [(key: RequestKey, names: [String])] = []
        var perStatus: [Int: Int] = [:]
        var firstSuccess: String?
        for (request, allConditions) in zip(requests, conditions) {
            let when = allConditions.filter { $0.kind == "path" || varying.contains("\($0.kind) \($0.name)") }
            let requestKey = requestIdentity(request)
            var variant = makeVariant(request, report: &report)
            let responseKey = ResponseKey(request: requestKey, status: variant.status, headers: variant.headers.map { "\($0.name): \($0.value)" },
                                          body: variant.body)
            if variantFor[responseKey] == nil {
                let count = perStatus[variant.status, default: 0] + 1
                perStatus[variant.status] = count
                variant.name = count == 1 ? String(variant.status) : "\(variant.status)-\(count)"
                // Only a request's first answer is chosen by `when`; later ones are for sequences.
                variant.when = sequences.contains { $0.key == requestKey } ? [] : when
                variants.append(variant)
                variantFor[responseKey] = variant.name
            }
            let name = variantFor[responseKey]!
            if firstSuccess == nil, (200...299).contains(request.status) { firstSuccess = name }
            if let index = sequences.firstIndex(where: { $0.key == requestKey }) { sequences[index].names.append(name) } else { sequences.append((requestKey, [name])) }
        }
        var route = CaptureLayout.Route(folder: folder, method: group.method, path: path, description: sequenceHint(sequences),
                                        headers: [], variants: variants, defaultVariant: firstSuccess ?? variants.first?.name)
        hoistSharedHeaders(&route)
        return route
    }

    /// Path parameters, non-secret query parameters and top-level body fields of one request.
    func whenConditions(_ request: CapturedExchange) -> [(kind: String, name: String, value: String)] {
        var result: [(kind: String, name: String, value: String)] = []
        let segments = PathTemplating.segments(request.path)
        for (segment, parameter) in zip(segments, group.parameters) where parameter != nil {
            result.append(("path", parameter!, segment.removingPercentEncoding ?? segment))
        }
        var seen = Set<String>()
        for item in request.query where !policy.isSecret(item.name) && seen.insert(item.name).inserted {
            result.append(("query", item.name, item.value))
        }
        let contentType = request.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value
        for (name, value) in BodyFields.parse(request.requestBody, contentType: contentType).sorted(by: { $0.key < $1.key }) where !policy.isSecret(name) {
            result.append(("body", name, value))
        }
        return result
    }

    /// Query and body names whose value (or presence) differs between the route's requests.
    func varyingConditionNames(_ all: [[(kind: String, name: String, value: String)]]) -> Set<String> {
        var values: [String: Set<String>] = [:]
        for conditions in all {
            for c in conditions where c.kind != "path" { values["\(c.kind) \(c.name)", default: []].insert(c.value) }
        }
        return Set(values.filter { entry in entry.value.count > 1 || all.contains { !$0.contains { "\($0.kind) \($0.name)" == entry.key } } }.keys)
    }

    /// Requests with the same path, query (secrets left out) and body are the same request.
    struct RequestKey: Hashable {
        /// `path?query`, as the sequence hint names it.
        let target: String
        let body: [UInt8]
    }

    /// One distinct answer to one request.
    struct ResponseKey: Hashable {
        let request: RequestKey
        let status: Int
        let headers: [String]
        let body: [UInt8]
    }

    func requestIdentity(_ request: CapturedExchange) -> RequestKey {
        let query = request.query.filter { !policy.isSecret($0.name) }.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return RequestKey(target: query.isEmpty ? request.path : request.path + "?" + query, body: request.requestBody)
    }

    /// The variant for a response: its body processed (pretty JSON, secrets out) and kept headers.
    func makeVariant(_ request: CapturedExchange, report: inout RedactionReport) -> CaptureLayout.Variant {
        let kind = BodyKind.of(media: request.mediaType, body: request.responseBody)
        var body = request.responseBody
        if case .json = kind, !body.isEmpty {
            body = JSONRewriter(policy: policy).rewrite(body, report: &report, place: "response body field")
        }
        var headers: [(name: String, value: String)] = []
        if !body.isEmpty, let type = kind.keptContentType(request.responseHeader("Content-Type") ?? request.mimeType) { headers.append(("Content-Type", type)) }
        var seen = Set<String>()
        for header in request.responseHeaders {
            let lower = header.name.lowercased()
            guard RouteBuilder.keptHeaders.contains(lower) || lower.hasPrefix("x-ratelimit-"), !policy.isSecret(header.name),
                  seen.insert(lower).inserted else { continue }
            headers.append((header.name, header.value))
        }
        return CaptureLayout.Variant(name: "", status: request.status, fileExtension: body.isEmpty ? nil : kind.ext, body: body, headers: headers, when: [])
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
