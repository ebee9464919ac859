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

    /// The problems of an operation document against a schema, by graphql-core's validation
    /// rules for executable documents and in its words, each at graphql-core's first location
    /// for it: sorted by line and column, problems at one place in the order graphql-core
    /// reports them (each check adds them in that order; the sort is stable).
    package static func validate(_ document: GraphQLOperations, against schema: GraphQLSchema) -> [String] {
        let schema = schema.withIntrospection()
        let problems = GraphQLDefinitionCheck(schema: schema, document: document).problems
            + GraphQLDocumentCheck(schema: schema, document: document).problems
            + GraphQLFragmentSpreads(schema: schema, document: document).problems
            + GraphQLFragmentCycles(document).problems
            + GraphQLDirectiveCheck(schema: schema, document: document).problems
            + GraphQLArgumentCheck(schema: schema, document: document).problems
            + GraphQLOverlappingFields(schema: schema, document: document).problems
        let prefix = document.file.count + 1
        func place(_ problem: String) -> (Int, Int) {
            let numbers = problem.dropFirst(prefix).split(separator: ":", maxSplits: 2).prefix(2).map { Int($0) ?? 0 }
            return (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0)
        }
        let sorted = problems.enumerated().sorted { a, b in
            let (pa, pb) = (place(a.element), place(b.element))
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
        // graphql-core stops at 100 errors, and so does this: a hostile document gets a page of
        // problems, not a million lines.
        guard sorted.count > maxProblems else { return sorted }
        return Array(sorted.prefix(maxProblems)) + ["\(document.file): Too many validation errors, error limit reached. Validation aborted."]
    }

    /// graphql-core's `max_errors`.
    static let maxProblems = 100

    /// The problems of the schema itself, by the type-system rules graphql-core enforces.
    package static func validate(_ schema: GraphQLSchema) -> [GraphQLDocumentError] {
        GraphQLSchemaCheck(schema).problems
    }

    /// Checks the schema, then the operation routes of `catalog` against it.
    package init(catalog: StubCatalog, schema: GraphQLSchema) {
        problems = GraphQLStubCheck.validate(schema).map(\.description)
        // Made once: `validate` adds nothing to a schema that has it already, so copies nothing.
        let introspected = schema.withIntrospection()
        for route in catalog.routes {
            guard let name = route.operation else { continue }
            let relative = "\(route.id)/\(GraphQLStubCheck.documentFile)"
            let path = URL(fileURLWithPath: catalog.directory).appendingPathComponent(relative).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                warnings.append("\(route.id)/route.json: operation \(name) has no \(GraphQLStubCheck.documentFile); its bodies are not checked")
                continue
            }
            check(route, operation: name, document: text, file: relative, schema: schema, introspected: introspected)
        }
    }

    private mutating func check(_ route: Route, operation name: String, document text: String, file: String, schema: GraphQLSchema,
                            introspected: GraphQLSchema) {
        let document: GraphQLOperations
        switch GraphQLOperations.parse(text, file: file) {
        case .failure(let error):
            problems.append(error.description)
            return
        case .success(let parsed): document = parsed
        }
        // The document as a whole first, as graphql-core validates it: its problems do not
        // depend on which of its operations the route answers.
        let documentProblems = GraphQLStubCheck.validate(document, against: introspected)
        problems += documentProblems
        guard let operation = document.operations.first(where: { $0.name == name }) else {
            // Ten names at most: a hostile document may have 100,000 operations.
            let all = document.operationNames.map { $0 ?? "(anonymous)" }
            let names = all.prefix(10).joined(separator: ", ") + (all.count > 10 ? " and \(all.count - 10) more" : "")
            problems.append("\(file): has no operation \(name), which \(route.id)/route.json answers (it has \(names.isEmpty ? "none" : names))")
            return
        }
        if operation.kind != route.operationKind {
            problems.append("\(file):\(operation.line): \(name) is a \(operation.kind), but \(route.id)/route.json says \(route.operationKind ?? "query")")
        }
        operationsChecked += 1
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
