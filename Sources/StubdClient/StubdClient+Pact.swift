import Foundation

extension StubdClient {
    /// The journal as a Pact contract (specification 3.0.0, `GET /__stubd/journal/pact`): the
    /// file's bytes, ready to write where a Pact broker or a provider's verification reads it.
    /// `since` is a journal entry id: only later requests count.
    public func pact(consumer: String, provider: String, since: Int? = nil, session: String? = nil) async throws -> Data {
        var query = [("consumer", consumer), ("provider", provider)]
        if let since { query.append(("since", String(since))) }
        return try await request("GET", "journal/pact", query: query, json: nil, session: session)
    }
}
