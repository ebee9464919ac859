/// The dashboard's files (`/__stubd/ui`), handed to the admin API by the server, which embeds
/// them; the API only serves them. They are public: the page asks for the admin token itself, and
/// every call it makes carries it.
package struct AdminFiles: Sendable {
    /// One file and its media type.
    package struct File: Sendable {
        package let contentType: String
        package let bytes: [UInt8]

        package init(contentType: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    /// Files by name (`index.html`, `app.js`); the page is `index.html`.
    package let files: [String: File]

    package init(files: [String: File]) {
        self.files = files
    }

    /// What the browser may load and run: the dashboard's own files and calls to this server,
    /// nothing inline, nothing from elsewhere, and no framing by another page.
    package static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The reply for `/__stubd/ui` (the page) or `/__stubd/ui/NAME`.
    func reply(for name: String) -> Reply {
        guard let file = files[name.isEmpty ? "index.html" : name] else {
            return .error(404, "no such dashboard file", [("file", .string(name)), ("files", .array(files.keys.sorted().map { .string($0) }))])
        }
        return Reply(status: 200, headers: [
            HTTPHeader("Content-Type", file.contentType), HTTPHeader("Content-Security-Policy", AdminFiles.contentSecurityPolicy),
            HTTPHeader("X-Content-Type-Options", "nosniff"), HTTPHeader("Referrer-Policy", "no-referrer"),
            HTTPHeader("X-Frame-Options", "DENY"), HTTPHeader("Cache-Control", "no-cache"),
        ], body: file.bytes)
    }
}
