import StubCore
import StubSchema

extension ContractChecker {
    /// A refusal's body when the one stubd made (the service's error envelope, or stubd's own
    /// JSON) does not fit the schema the operation documents for `status`: OpenAI's
    /// `POST /evals/{eval_id}/runs` documents its 400 as a bare `Error` while the service's
    /// envelope is `{"error": Error}`, so a client checking bodies against the document would
    /// fail on the refusal. The new body is made from that schema, with the problems in its
    /// `message` string (at the top or one object down) where it has one. nil keeps the body:
    /// it fits, nothing is documented, or no value could be made that fits.
    /// The schema is compiled and the value made once per operation and status (`CompiledChecks`):
    /// under a fuzzer nearly every request is a refusal.
    package func refusalBody(_ status: Int, route: Route, refusal: JSONValue, message: String) -> JSONValue? {
        guard let operation = checks.operation(for: route)?.operation,
              let documented = checks.refusal(for: operation, status: status),
              !documented.schema.isValid(refusal, budget: .request), let made = documented.made else { return nil }
        let told = ContractChecker.withMessage(message, in: made)
        return documented.schema.isValid(told, budget: .request) ? told : made
    }

    /// `value` with `message` as its `message` member, or as that of the first object member
    /// that has one (`{"error": {"message": …}}`); unchanged when neither has one that is a string.
    static func withMessage(_ message: String, in value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        if let index = members.firstIndex(where: { $0.key == "message" }), case .string = members[index].value {
            var changed = members
            changed[index].value = .string(message)
            return .object(changed)
        }
        for (index, member) in members.enumerated() {
            guard case .object(let inner) = member.value, inner.contains(where: { $0.key == "message" }) else { continue }
            let nested = withMessage(message, in: member.value)
            guard case .object = nested else { continue }
            var changed = members
            changed[index].value = nested
            return .object(changed)
        }
        return value
    }
}
