internal import CGnuTLS

/// Why TLS material could not be made, read or used: the file concerned (when there is one)
/// and what is wrong with it, in words a user can act on.
public struct TLSError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file the problem is in, if any.
    public let file: String?
    /// What is wrong.
    public let problem: String

    /// An error about `file`, or about no file in particular.
    public init(file: String? = nil, _ problem: String) {
        self.file = file
        self.problem = problem
    }

    /// `file: problem`, or the problem alone.
    public var description: String { file.map { "\($0): \(problem)" } ?? problem }
}

/// The one way GnuTLS is called: a negative result becomes a `TLSError` naming the step and
/// GnuTLS's own words for the failure.
enum GnuTLS {
    static func check(_ step: @autoclosure () -> String, file: String? = nil, _ call: () -> Int32) throws(TLSError) {
        let code = call()
        guard code < 0 else { return }
        throw TLSError(file: file, "\(step()) (GnuTLS: \(message(code)))")
    }

    static func message(_ code: Int32) -> String {
        String(cString: gnutls_strerror(code))
    }

    /// The bytes of an exported datum, freed afterwards.
    static func take(_ datum: inout gnutls_datum_t) -> [UInt8] {
        defer { CGnuTLS_free_datum(&datum) }
        guard let data = datum.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }

    /// Calls `body` with a datum over `bytes` (GnuTLS only reads it).
    static func withDatum<R>(_ bytes: [UInt8], _ body: (inout gnutls_datum_t) throws(TLSError) -> R) throws(TLSError) -> R {
        var copy = bytes
        return try copy.withUnsafeMutableBufferPointer { buffer throws(TLSError) -> R in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return try body(&datum)
        }
    }
}
