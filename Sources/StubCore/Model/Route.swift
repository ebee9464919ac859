/// One route folder: a method and path template with its response variants.
public final class Route: Sendable {
    /// `service/folder`, or `folder` for a route directly under the stub root.
    public let id: String
    /// The service folder name, nil for routes directly under the root.
    public let service: String?
    /// The route folder name.
    public let name: String
    /// Upper-case HTTP method.
    public let method: String
    /// The full path template (service basePath joined with the route's path).
    package let template: PathTemplate
    /// Variants in selection order: those listed in route.json first, then the rest by name.
    public let variants: [Variant]
    /// Index into `variants` of the response served when nothing else selects one.
    public let defaultIndex: Int
    /// The service's error shape, for answers stubd makes itself on the route's behalf (a
    /// request refused by the API contract).
    package let errorEnvelope: ErrorEnvelope?
    /// For a route of a GraphQL service: the operation it answers (`GetUser`), found by name in
    /// the requests to the service's endpoint; nil for a plain HTTP route.
    public let operation: String?
    /// `query`, `mutation` or `subscription`, for an operation route.
    public let operationKind: String?
    /// For a WebSocket route (`"websocket"` in route.json): what the handshake offers; nil for
    /// a plain HTTP route.
    public let webSocket: WebSocketEndpoint?
    /// Each variant's `when.path` resolved against `template`, by variant index; empty when no
    /// variant has one (most routes: no array is made for them).
    let pathConditions: [PathCondition?]
    /// What the route remembers (state, values that move, a collection); nil for most routes.
    package let memory: RouteMemory?

    /// The full path as written, e.g. `/api/v1/users/{id}`.
    public var fullPath: String { template.text }
    /// The default variant.
    public var defaultVariant: Variant { variants[defaultIndex] }

    /// Makes a route; `defaultIndex` must be a valid index into `variants`.
    package init(id: String, service: String?, name: String, method: String, template: PathTemplate, variants: [Variant], defaultIndex: Int,
                errorEnvelope: ErrorEnvelope? = nil, operation: String? = nil, operationKind: String? = nil, webSocket: WebSocketEndpoint? = nil,
                memory: RouteMemory? = nil) {
        self.id = id
        self.service = service
        self.name = name
        self.method = method
        self.template = template
        self.variants = variants
        self.defaultIndex = defaultIndex
        self.errorEnvelope = errorEnvelope
        self.operation = operation
        self.operationKind = operation == nil ? nil : (operationKind ?? "query")
        self.webSocket = webSocket
        self.memory = memory ?? (variants.contains(where: RouteMemory.needed) ? RouteMemory(service: service ?? "") : nil)
        pathConditions = variants.contains { $0.condition?.path.isEmpty == false }
            ? variants.map { $0.condition.flatMap { PathCondition($0.path, template: template) } } : []
    }

    /// True when variant `index` has a `when` and it holds for the request behind `view`; its
    /// path part is read with the resolved form, from the path's bytes.
    func selects(variant index: Int, _ view: inout RequestView) -> Bool {
        guard index < pathConditions.count else { return variants[index].selected(by: &view, path: nil, of: ObjectIdentifier(self)) }
        return variants[index].selected(by: &view, path: pathConditions[index], of: ObjectIdentifier(self))
    }

    /// The index of the variant called `name`.
    public func variantIndex(named name: String) -> Int? {
        variants.firstIndex { $0.name == name }
    }

    /// The variants a Postman mock server's headers pick, in order: named `mockName` (its name,
    /// or its description, where `import-postman` keeps the example's name) and of status `code`,
    /// each when given. Two examples of different requests may share a name; the request tells
    /// them apart (`ResponsePlanner`).
    func variantIndices(mockName: String?, code: Int?) -> [Int] {
        variants.indices.filter { index in
            let variant = variants[index]
            return (code == nil || variant.status == code) && (mockName == nil || variant.name == mockName || variant.description == mockName)
        }
    }
}
