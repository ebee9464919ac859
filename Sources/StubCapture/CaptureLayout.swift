#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// The stub tree a list of exchanges becomes, in stubd's own format: a service per host (its
/// `basePath` the paths' common prefix), a route per method and path shape, a variant per
/// distinct response, picked by `when` on what told the requests apart. Secrets are taken out on
/// the way (see `SecretPolicy`).
package struct CaptureLayout: Sendable {
    /// How exchanges are grouped.
    package struct Options: Sendable {
        /// The service folder's name; only with one host (default: the host).
        package var service: String?
        /// The service's `basePath` (default: the common prefix of the paths).
        package var basePath: String?
        /// Id-like segments that vary become `{param}`; false keeps literal paths.
        package var templates = true
        /// Body and query values are secret by name and token shape, not by name alone, and a
        /// secret keeps its JSON type (`SecretShape`): for documentation, a Postman collection.
        package var secretsByShape = false
        /// Secret values the source named (a Postman auth block's, an environment's secret
        /// values), scrubbed wherever they appear: where and under which name, and the value.
        package var knownSecrets: [(place: String, name: String, value: String)] = []

        /// The defaults.
        package init() {}
    }

    /// One service folder.
    package struct Service: Sendable {
        /// The folder name.
        package var name: String
        /// The host its requests went to.
        package var host: String
        /// The paths' common prefix, or empty.
        package var basePath: String
        /// Its routes, in capture order.
        package var routes: [Route]
        /// The GraphQL endpoint's path after the basePath, when the host answered GraphQL.
        package var graphqlPath: String? = nil
    }

    /// One route folder.
    package struct Route: Sendable {
        /// The folder name (`get-users-id`).
        package var folder: String
        /// Upper-case method.
        package var method: String
        /// The path after the basePath, with `{param}` templates.
        package var path: String
        /// A note, such as the sequence of a repeated request.
        package var description: String?
        /// Headers every variant has, written in route.json.
        package var headers: [(name: String, value: String)]
        /// Its variants, in the order they were captured.
        package var variants: [Variant]
        /// The first 2xx variant, served when no `when` holds.
        package var defaultVariant: String?
        /// For GraphQL traffic: the operation's name, its kind and the document it was sent with.
        package var operation: (name: String, kind: String, document: String?)? = nil
        /// For a WebSocket route: the subprotocols the server agreed to (empty for none).
        package var webSocket: [String]? = nil
    }

    /// One variant: a body file (or none) and what selects it.
    package struct Variant: Sendable {
        /// The variant name (`200`, `200-2`, `404`).
        package var name: String
        /// The captured status.
        package var status: Int
        /// The body file's extension, or nil for an empty body.
        package var fileExtension: String?
        /// The body as written (pretty JSON, secrets out).
        package var body: [UInt8]
        /// The file the body is copied from instead, when a recording kept it on disk.
        package var bodyFile: String? = nil
        /// Headers kept for this variant.
        package var headers: [(name: String, value: String)]
        /// `(kind, name, value)`: kind is `path`, `query`, `header`, `body` or `variables`.
        package var when: [(kind: String, name: String, value: String)]
        /// The name the source gave the response (a Postman example's), which
        /// `x-mock-response-name` picks it by.
        package var description: String? = nil
        /// For a WebSocket route: the conversation the captured messages became (no body file).
        package var conversation: JSONValue? = nil
    }

    /// The services, one per host.
    package var services: [Service]
    /// What was redacted.
    package var redactions: RedactionReport

    /// A layout of `services`.
    package init(services: [Service], redactions: RedactionReport) {
        self.services = services
        self.redactions = redactions
    }

    /// The service folder name a host gets by default.
    package static func serviceName(host: String) -> String { PathTemplating.serviceName(host: host) }

    /// Groups `exchanges` into services, routes and variants.
    package static func build(_ exchanges: [CapturedExchange], options: Options = Options(), policy: SecretPolicy = SecretPolicy()) -> CaptureLayout {
        var report = RedactionReport()
        // Secrets in requests are never written, but their values are scrubbed wherever they reappear.
        for exchange in exchanges { noteRequestSecrets(exchange, policy: policy, byShape: options.secretsByShape, report: &report) }
        for secret in options.knownSecrets { report.note(secret.place, secret.name, value: secret.value) }
        var hosts: [String] = []
        var byHost: [String: [CapturedExchange]] = [:]
        for exchange in exchanges {
            if byHost[exchange.host] == nil { hosts.append(exchange.host) }
            byHost[exchange.host, default: []].append(exchange)
        }
        var services: [Service] = []
        for host in hosts {
            let name = options.service ?? PathTemplating.serviceName(host: host)
            let builder = ServiceBuilder(host: host, exchanges: byHost[host] ?? [], options: options, policy: policy)
            services.append(builder.build(name: name, report: &report))
        }
        var layout = CaptureLayout(services: services, redactions: report)
        layout.scrubSecrets()
        return layout
    }

    static func noteRequestSecrets(_ exchange: CapturedExchange, policy: SecretPolicy, byShape: Bool = false, report: inout RedactionReport) {
        for (place, headers) in [("request header", exchange.requestHeaders), ("response header", exchange.responseHeaders)] {
            for header in headers where policy.isSecret(header.name) {
                if ["cookie", "set-cookie"].contains(header.name.lowercased()) {
                    report.noteCookieHeader(place, header.name, value: header.value, policy: policy)
                } else {
                    report.note(place, header.name, value: header.value)
                }
            }
        }
        for item in exchange.query where SecretShape.isSecret(item.name, value: item.value, policy: policy, byShape: byShape) {
            report.note("query", item.name, value: item.value)
        }
        let contentType = exchange.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value
        for (name, value) in BodyFields.parse(exchange.requestBody, contentType: contentType)
            where SecretShape.isSecret(name, value: value, policy: policy, byShape: byShape) {
            report.note("request body field", name, value: value)
        }
        if GraphQLCapture.operation(of: exchange) != nil {
            for (path, value) in GraphQLCapture.variables(of: exchange) where GraphQLCapture.isSecret(path, policy: policy) {
                report.note("GraphQL variable", path, value: value)
            }
        }
    }

    /// Replaces captured secret values in every body and header value that will be written.
    mutating func scrubSecrets() {
        for s in services.indices {
            for r in services[s].routes.indices {
                services[s].routes[r].headers = scrub(services[s].routes[r].headers)
                for v in services[s].routes[r].variants.indices {
                    var variant = services[s].routes[r].variants[v]
                    variant.headers = scrub(variant.headers)
                    // A spooled body was scrubbed as it arrived (see `CaptureSpool`).
                    if variant.bodyFile == nil, variant.fileExtension.map({ ["json", "txt", "html", "xml", "csv"].contains($0) }) == true,
                       let text = String(validating: variant.body, as: UTF8.self) {
                        let (clean, replaced) = redactions.scrub(text)
                        if replaced > 0 {
                            variant.body = Array(clean.utf8)
                            redactions.countScrubbed(replaced)
                        }
                    }
                    services[s].routes[r].variants[v] = variant
                }
            }
        }
    }
}

extension CaptureLayout {
    /// Header values with captured secrets replaced, counted.
    mutating func scrub(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header in
            let (clean, replaced) = redactions.scrub(header.value)
            if replaced > 0 { redactions.noteCount("captured secret value found elsewhere in header \(header.name)", replaced) }
            return (header.name, clean)
        }
    }
}

extension RedactionReport {
    mutating func countScrubbed(_ count: Int) {
        noteCount("captured secret value found elsewhere in a body", count)
    }
}
