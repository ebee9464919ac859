import Foundation
import StubServer

/// `http://127.0.0.1:PORT`, as the browser scripts join paths to it.
package func origin(_ server: StubServer) -> String {
    var text = server.baseURL.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return text
}

/// Where the browser suites put screenshots: `STUBD_SCREENSHOTS`, else a temporary folder.
package func shots() throws -> String {
    let shots = ProcessInfo.processInfo.environment["STUBD_SCREENSHOTS"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("stubd-screens-\(getpid())").path
    try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
    return shots
}
