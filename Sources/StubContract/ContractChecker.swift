import StubCore
import StubSchema

/// Checks each request to a stubbed route against its operation (`serve --openapi`): path
/// parameters, required query parameters and headers, and the body against the schema of the
/// media type the request's `Content-Type` names (JSON, form fields, multipart field names).
/// Values from the path, query and headers are read as the schema's type (`"7"` as the integer
/// 7) before they are validated. Every check runs under a budget (`SchemaBudget.request`), so
/// no request can hold a thread for long whatever the schema or the body.
package final class ContractChecker: RequestContract {
    let document: OpenAPIDocument
    package let enforces: Bool
    let checks: CompiledChecks

    /// A checker for `document`; `enforces` answers violations with 400 or 422.
    package init(document: OpenAPIDocument, enforces: Bool) {
        self.document = document
        self.enforces = enforces
        checks = CompiledChecks(document: document)
    }

    /// Compiles the checks of `routes` now rather than on their first requests; returns the
    /// patterns in the document the checker cannot use, one line each.
    package func prepare(_ routes: [Route]) -> [String] {
        for route in routes { _ = checks.operation(for: route) }
        return checks.warnings.map { "\(document.file): \($0)" }
    }

    package func violations(of request: any RequestHead, route: Route) -> [ContractViolation]? {
        guard let operation = checks.operation(for: route) else { return nil }
        var found: [ContractViolation] = []
        let specSegments = (document.basePath + operation.operation.path).split(separator: "/")
        let routeSegments = route.fullPath.split(separator: "/")
        for (parameter, schema, resolved) in operation.parameters {
            let location = "$.\(parameter.location).\(parameter.name)"
            let raw: String?
            switch parameter.location {
            case "path":
                // Templates are compared by position: the route may name the parameter otherwise.
                guard let index = specSegments.firstIndex(of: Substring("{\(parameter.name)}")), index < routeSegments.count else { continue }
                let name = routeSegments[index].dropFirst().dropLast()
                raw = route.template.value(of: String(name), in: request.path)
            case "query": raw = request.queryValue(parameter.name)
            case "header": raw = request.header(parameter.name)
            default: continue
            }
            guard let raw else {
                if parameter.required { found.append(ContractViolation(location: location, problem: "missing required \(parameter.location == "header" ? "header" : "\(parameter.location) parameter")")) }
                continue
            }
            guard let schema else { continue }
            for problem in schema.validate(ContractChecker.typed(raw, schema: resolved), at: location, budget: .request) {
                found.append(ContractViolation(location: problem.path, problem: problem.message))
            }
        }
        if !operation.bodies.isEmpty { found += bodyViolations(request, operation) }
        return found
    }

    /// 415, 422 or 400 as `ContractViolation.status(of:)` picks, when the operation documents
    /// it (or a `4XX` or `default` response covers it); else the first of 400 and 422 it does
    /// document, so that a client checking statuses against the document (Schemathesis's
    /// status_code_conformance) meets one it knows: Nakadi's `POST /event-types` documents 422
    /// and no 400. An operation that documents neither gets the plain choice.
    package func refusalStatus(_ violations: [ContractViolation], route: Route) -> Int {
        let status = ContractViolation.status(of: violations)
        guard let operation = checks.operation(for: route)?.operation else { return status }
        if document.response(operation, status: status) != nil { return status }
        return [400, 422].first { choice in operation.responses.contains { $0.status == String(choice) } } ?? status
    }

    /// The JSON type the operation documents for `status` when it is not plain JSON
    /// (`application/problem+json`, Nakadi's `application/x-json-stream`), so that the refusal
    /// is sent as the document says that answer comes; nil for plain JSON or none.
    package func refusalMediaType(_ status: Int, route: Route) -> String? {
        guard let operation = checks.operation(for: route)?.operation, let type = document.response(operation, status: status)?.mediaType else { return nil }
        return MediaBody.header(for: type, fileExtension: "json")
    }

    /// A path, query or header value as the schema's type: integers, numbers and booleans parsed,
    /// arrays split on commas; anything that does not parse stays a string (and fails the type).
    static func typed(_ text: String, schema: JSONValue) -> JSONValue {
        switch SchemaSynthesizer.type(of: schema) {
        case "integer", "number": return JSONNumber(literal: text).map { .number($0) } ?? .string(text)
        case "boolean": return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case "array": return .array(text.split(separator: ",").map { typed(String($0), schema: schema["items"] ?? .object([])) })
        default: return .string(text)
        }
    }
}
