/// What one variant remembers or renders per request beyond its body: `when` parts that read
/// state, the changes it makes when it answers, and headers with placeholders. Nil on a variant
/// with none of them (most): planning then never reaches memory.
package final class VariantMemory: Sendable {
    /// The `when` parts that read state; empty when only `then` is given.
    package let condition: StateCondition
    /// The `then` changes; nil without.
    package let changes: StateChanges?
    /// Headers whose values are templates (`"X-Token": "{{state.token}}"`), by name.
    package let headers: [(name: String, value: ResponseTemplate)]

    /// Makes a variant's memory.
    package init(condition: StateCondition, changes: StateChanges?, headers: [(name: String, value: ResponseTemplate)] = []) {
        self.condition = condition
        self.changes = changes
        self.headers = headers
    }
}
