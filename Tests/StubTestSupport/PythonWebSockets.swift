import StubServer

/// Python's `websockets`, the strict client the WebSocket suites talk through.
package enum PythonWebSockets {
    /// `ws://host:port` of a running server.
    package static func url(_ server: StubServer) -> String {
        server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://").trimmingCharacters(in: ["/"])
    }
}
