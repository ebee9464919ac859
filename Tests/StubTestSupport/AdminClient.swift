import Foundation
import StubServer

/// Calls the admin API the way a test in another process would.
struct AdminClient {
    let server: StubServer
    var session: String?
    var token: String?

    func call(_ method: String, _ path: String, json: String? = nil) async throws -> Fetched {
        var headers: [String: String] = [:]
        if let session { headers["X-Stub-Session"] = session }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if json != nil { headers["Content-Type"] = "application/json" }
        return try await HTTPClient.fetch(server.url("/__stubd" + path), method: method, headers: headers, body: json.map { Data($0.utf8) })
    }

    func object(_ method: String, _ path: String, json: String? = nil) async throws -> [String: Any] {
        let got = try await call(method, path, json: json)
        return (try? got.json() as? [String: Any]) ?? ["_status": got.status]
    }
}
