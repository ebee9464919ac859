/// Why an upstream call failed. `code` is the matching `URLError.Code` number, which Swift
/// clients already know (-1001 timed out, -1004 cannot connect, -1202 untrusted certificate…).
package struct UpstreamFailure: Error, Sendable, Equatable {
    /// What went wrong, numbered as `URLError.Code` numbers it.
    package enum Kind: Int, Sendable {
        case cancelled = -999
        case badURL = -1000
        case timedOut = -1001
        case cannotFindHost = -1003
        case cannotConnect = -1004
        case connectionLost = -1005
        case badServerResponse = -1011
        case tooLarge = -1103
        case tlsFailed = -1200
        case untrustedCertificate = -1202
    }

    /// What went wrong.
    package let kind: Kind
    /// The words for people: what was attempted and what answered.
    package let detail: String

    /// The `URLError.Code` number for `kind`.
    package var code: Int { kind.rawValue }

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
