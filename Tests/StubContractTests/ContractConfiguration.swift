import Foundation
import StubContract
import StubServer

/// `--openapi` as the CLI attaches it, for in-process servers in the tests.
extension StubServerConfiguration {
    /// Checks requests against the OpenAPI document at `spec`, refusing violations when `enforces`.
    mutating func check(against spec: URL, enforces: Bool = false) {
        do {
            contract = ContractChecker(document: try OpenAPIDocument(path: spec.path), enforces: enforces)
        } catch {
            fatalError("cannot read \(spec.path): \(error.description)")
        }
    }
}
