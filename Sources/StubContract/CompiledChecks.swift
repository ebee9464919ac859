import StubCore
import StubSchema
import StubSystem

/// The compiled schemas of each operation a route stands for, made on the route's first request
/// and kept: compiling is the only step that needs the (single-threaded) compiler, so it runs
/// under a lock, and what it makes is immutable and shared by every later request.
///
/// @unchecked Sendable: `compiler` and `cache` are touched only while `lock` is held; the values
/// handed out are immutable (`CompiledSchema` is Sendable).
final class CompiledChecks: @unchecked Sendable {
    /// One request body media type and its schema.
    struct Body: Sendable {
        let body: OpenAPIDocument.RequestBody
        let schema: CompiledSchema?
        /// The schema with its ref followed, for reading field types.
        let resolved: JSONValue
    }

    /// The checks of one operation.
    struct Operation: Sendable {
        let operation: OpenAPIDocument.Operation
        let parameters: [(OpenAPIDocument.Parameter, CompiledSchema?, JSONValue)]
        let bodies: [Body]
    }

    private let document: OpenAPIDocument
    private let lock = PlainLock()
    private let compiler: SchemaCompiler
    /// By method and full path (a reload makes new routes for the same operations): the
    /// operation's checks, or nil when the document has no such operation.
    private var cache: [String: Operation?] = [:]
    /// By operation and status: what a refusal is checked against and made from (`refusal`).
    private var refusals: [String: Refusal?] = [:]

    /// The schema an operation documents for a status, compiled, and a value made from it that
    /// fits it (nil when none could be made): what an enforced refusal must fit.
    struct Refusal: Sendable {
        let schema: CompiledSchema
        let made: JSONValue?
    }

    init(document: OpenAPIDocument) {
        self.document = document
        compiler = document.compiler()
    }

    /// Operations whose checks are left out because they use a remote ref, one line each.
    private var unchecked: [String] = []

    var warnings: [String] { lock.withLock { compiler.warnings + unchecked } }

    func operation(for route: Route) -> Operation? {
        let key = route.method + " " + route.fullPath
        return lock.withLock {
            if let known = cache[key] { return known }
            let made = document.operation(method: route.method, fullPath: route.fullPath).map(compile)
            cache[key] = made
            return made
        }
    }

    /// The `Refusal` for `status` on `operation`, made once; nil when the status documents no schema.
    func refusal(for operation: OpenAPIDocument.Operation, status: Int) -> Refusal? {
        let key = "\(operation.pointer) \(status)"
        return lock.withLock {
            if let known = refusals[key] { return known }
            let made: Refusal? = document.response(operation, status: status)?.schema.map { schema in
                let value = SchemaSynthesizer(document: document, allKeys: false, compiler: compiler).fittingValue(schema)
                return Refusal(schema: compiler.compile(schema), made: value.problem == nil ? value.value : nil)
            }
            refusals[key] = made
            return made
        }
    }

    private func compile(_ operation: OpenAPIDocument.Operation) -> Operation {
        if let remote = operation.remoteRefs.first {
            // Its schemas cannot be read whole: its requests are let through unchecked, said once.
            unchecked.append("\(operation.name): requests not checked: it uses \(remote)")
            return Operation(operation: operation, parameters: [], bodies: [])
        }
        let parameters = operation.parameters.map { p in
            (p, p.schema.map { compiler.compile($0, location: "\(operation.pointer)/parameters/\(p.name)") }, document.dereferenced(p.schema) ?? p.schema ?? .object([]))
        }
        let bodies = operation.requestBodies.map { body in
            Body(body: body, schema: body.schema.map { compiler.compile($0, location: "\(operation.pointer)/requestBody") },
                 resolved: document.dereferenced(body.schema) ?? .object([]))
        }
        return Operation(operation: operation, parameters: parameters, bodies: bodies)
    }
}
