/// What one variant remembers: `when` parts that read state, and the changes it makes when it
/// answers. Nil on a variant that does neither (most): planning then never reaches memory.
package final class VariantMemory: Sendable {
    /// The `when` parts that read state; empty when only `then` is given.
    package let condition: StateCondition
    /// The `then` changes; nil without.
    package let changes: StateChanges?

    /// Makes a variant's memory.
    package init(condition: StateCondition, changes: StateChanges?) {
        self.condition = condition
        self.changes = changes
    }
}
