/// Why an OpenAPI document could not be read: the file, where in it, and what was expected.
package struct ContractError: Error, Sendable, CustomStringConvertible {
    /// The document (or a file it refers to).
    package let file: String
    /// A line (`12`) or a JSON pointer (`/paths/~1users/get`) in it, if known.
    package let location: String?
    /// What is wrong.
    package let message: String

    /// `file:location: message`.
    package var description: String { location.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
