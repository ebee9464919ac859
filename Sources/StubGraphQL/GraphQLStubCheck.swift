#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// `stubd check DIR --graphql schema.graphqls`: each operation route's document
/// (`operation.graphql` in its folder) against the schema, and each variant's JSON body against
/// the document's selection set for the route's operation.
package struct GraphQLStubCheck {
    /// What does not fit, one line each: file, JSON path or line, what was expected.
    package private(set) var problems: [String] = []
    /// Routes that could not be checked (no document).
    package private(set) var warnings: [String] = []
    /// How many operations were checked.
    package private(set) var operationsChecked = 0
    /// How many bodies were checked.
    package private(set) var bodiesChecked = 0

    /// The document every operation route keeps beside its route.json.
    package static let documentFile = RouteLoader.operationDocument

    /// The problems of an operation document against a schema: unknown types, fragments and
    /// fields, leaves with a selection set and objects without one; unknown, missing and
    /// mistyped arguments, undefined, unused and misplaced variables; fragments that spread
    /// themselves, fragments no operation uses and spreads whose type can never match.
    package static func validate(_ document: GraphQLOperations, against schema: GraphQLSchema) -> [String] {
        GraphQLFragmentCycles(document).problems + GraphQLDocumentCheck(schema: schema, document: document).problems
            + GraphQLArgumentCheck(schema: schema, document: document).problems
            + GraphQLFragmentSpreads(schema: schema, document: document).problems
    }

    /// The problems of the schema itself, by the type-system rules graphql-core enforces.
    package static func validate(_ schema: GraphQLSchema) -> [GraphQLDocumentError] {
        GraphQLSchemaCheck(schema).problems
    }

    /// Checks the schema, then the operation routes of `catalog` against it.
    package init(catalog: StubCatalog, schema: GraphQLSchema) {
        problems = GraphQLStubCheck.validate(schema).map(\.description)
        for route in catalog.routes {
            guard let name = route.operation else { continue }
            let relative = "\(route.id)/\(GraphQLStubCheck.documentFile)"
            let path = URL(fileURLWithPath: catalog.directory).appendingPathComponent(relative).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                warnings.append("\(route.id)/route.json: operation \(name) has no \(GraphQLStubCheck.documentFile); its bodies are not checked")
                continue
            }
            check(route, operation: name, document: text, file: relative, schema: schema)
        }
    }

    private mutating func check(_ route: Route, operation name: String, document text: String, file: String, schema: GraphQLSchema) {
        let document: GraphQLOperations
        switch GraphQLOperations.parse(text, file: file) {
        case .failure(let error):
            problems.append(error.description)
            return
        case .success(let parsed): document = parsed
        }
        guard let operation = document.operations.first(where: { $0.name == name }) else {
            let names = document.operationNames.map { $0 ?? "(anonymous)" }.joined(separator: ", ")
            problems.append("\(file): has no operation \(name), which \(route.id)/route.json answers (it has \(names.isEmpty ? "none" : names))")
            return
        }
        if operation.kind != route.operationKind {
            problems.append("\(file):\(operation.line): \(name) is a \(operation.kind), but \(route.id)/route.json says \(route.operationKind ?? "query")")
        }
        operationsChecked += 1
        let documentProblems = GraphQLStubCheck.validate(document, against: schema)
        problems += documentProblems
        guard documentProblems.isEmpty else { return }
        for variant in route.variants where variant.fault == nil && variant.stream == nil && !variant.body.isEmpty {
            let bodyFile = variant.bodySource ?? "\(route.id)/\(variant.name)"
            guard let body = try? JSONParser.parse(variant.body) else {
                problems.append("\(bodyFile): not JSON, so not a GraphQL response")
                continue
            }
            var bodyCheck = GraphQLBodyCheck(schema: schema, document: document, file: bodyFile)
            bodyCheck.check(body, operation: operation)
            problems += bodyCheck.problems
            bodiesChecked += 1
        }
        // A subscription's payloads, each as the response it is.
        for variant in route.variants {
            for (index, event) in (variant.subscription?.events ?? []).enumerated() {
                var payloadCheck = GraphQLBodyCheck(schema: schema, document: document, file: "\(route.id)/route.json: variants.\(variant.name).next[\(index)]")
                payloadCheck.check(event.payload, operation: operation)
                problems += payloadCheck.problems
                bodiesChecked += 1
            }
        }
    }
}
