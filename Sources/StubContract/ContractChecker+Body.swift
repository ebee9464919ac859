import StubCore
import StubSchema

extension ContractChecker {
    /// The body against the schema of the media type the request names.
    func bodyViolations(_ request: any RequestHead, _ operation: CompiledChecks.Operation) -> [ContractViolation] {
        guard !request.body.isEmpty else {
            return operation.operation.bodyRequired ? [ContractViolation(location: "$.body", problem: "missing request body")] : []
        }
        let accepted = operation.bodies.map(\.body.mediaType)
        let contentType = request.header("Content-Type")
        guard let chosen = ContractChecker.body(for: contentType, in: operation.bodies) else {
            let sent = contentType.map { "\($0) is" } ?? "a body without a Content-Type is"
            return [ContractViolation(location: "$.body", problem: "\(sent) not accepted; expected \(accepted.joined(separator: " or "))", kind: .mediaType)]
        }
        let media = chosen.body.mediaType
        let instance: JSONValue
        switch chosen.body.kind {
        case .json:
            do { instance = try JSONParser.parse(request.body) } catch {
                return [ContractViolation(location: "$.body", problem: "not valid JSON (\(media)): \(error.message) (line \(error.line))")]
            }
        case .form:
            instance = typedFields(FormDecoding.pairs(String(decoding: request.body, as: UTF8.self)), schema: chosen.resolved)
        case .multipart:
            guard let fields = MultipartFields.parse(request.body, contentType: contentType ?? "") else {
                return [ContractViolation(location: "$.body", problem: "not valid \(media): no boundary, or parts without a name")]
            }
            instance = typedFields(fields, schema: chosen.resolved)
        case .other:
            return []
        }
        guard let schema = chosen.schema else { return [] }
        return schema.validate(instance, at: "$.body", budget: .request).map { ContractViolation(location: $0.path, problem: $0.message, kind: .bodySchema) }
    }

    /// The request body entry for `contentType`: the same media type, then a wildcard
    /// (`application/*`, `*/*`), then one of the same kind; with no Content-Type, the only one.
    static func body(for contentType: String?, in bodies: [CompiledChecks.Body]) -> CompiledChecks.Body? {
        guard let contentType else { return bodies.count == 1 ? bodies[0] : nil }
        let type = mediaType(contentType)
        if let exact = bodies.first(where: { mediaType($0.body.mediaType) == type }) { return exact }
        let family = type.split(separator: "/").first.map { "\($0)/*" } ?? ""
        if let wild = bodies.first(where: { ["*/*", family].contains(mediaType($0.body.mediaType)) }) { return wild }
        let kind = OpenAPIDocument.BodyKind(mediaType: type)
        guard kind != .other else { return nil }
        return bodies.first { $0.body.kind == kind }
    }

    static func mediaType(_ text: String) -> String {
        String(text.split(separator: ";").first ?? "").trimmed().lowercased()
    }

    /// Form or multipart fields as an object, each value read as its property's type.
    private func typedFields(_ fields: [(name: String, value: String)], schema: JSONValue) -> JSONValue {
        let properties = document.dereferenced(schema["properties"])
        var members: [(key: String, value: JSONValue)] = []
        for (name, value) in fields where !members.contains(where: { $0.key == name }) {
            members.append((name, ContractChecker.typed(value, schema: document.dereferenced(properties?[name]) ?? .object([]))))
        }
        return .object(members)
    }
}

extension String {
    func trimmed() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
