import StubServer

/// Python's `websockets`, the strict client the WebSocket suites talk through.
package enum PythonWebSockets {
    /// Whether `import websockets.sync.client` works here.
    package static let installed = (try? Subprocess.runBlocking("/usr/bin/env", ["python3", "-c", "import websockets.sync.client"]).exitCode) == 0

    /// `ws://host:port` of a running server.
    package static func url(_ server: StubServer) -> String {
        server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://").trimmingCharacters(in: ["/"])
    }
}
