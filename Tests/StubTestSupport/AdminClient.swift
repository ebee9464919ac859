import Foundation
import StubServer

/// Calls the admin API the way a test in another process would.
package struct AdminClient {
    package let server: StubServer
    package var session: String?
    package var token: String?

    package init(server: StubServer, session: String? = nil, token: String? = nil) {
        self.server = server
        self.session = session
        self.token = token
    }

    package func call(_ method: String, _ path: String, json: String? = nil) async throws -> Fetched {
        var headers: [String: String] = [:]
        if let session { headers["X-Stub-Session"] = session }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if json != nil { headers["Content-Type"] = "application/json" }
        return try await HTTPClient.fetch(server.url("/__stubd" + path), method: method, headers: headers, body: json.map { Data($0.utf8) })
    }

    package func object(_ method: String, _ path: String, json: String? = nil) async throws -> [String: Any] {
        let got = try await call(method, path, json: json)
        return (try? got.json() as? [String: Any]) ?? ["_status": got.status]
    }
}
