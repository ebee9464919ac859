#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Reads HAR 1.2 as Proxyman, Charles, Chrome, Safari and Firefox export it: each entry's request,
/// response and `response.content` (`text`, optional `encoding: "base64"`, `mimeType`). Other
/// fields, and every `_`-prefixed one but `_resourceType` and `_webSocketMessages` (a WebSocket's
/// messages, which become a conversation), are ignored. Entries that are not API
/// calls (CONNECT, non-HTTP URLs, images, fonts, styles, scripts, media, no response) are skipped
/// and counted by reason.
package struct HARReader {
    /// What was read.
    package struct Result: Sendable {
        /// The API calls, in capture order.
        package var exchanges: [CapturedExchange] = []
        /// Entries left out, by reason (`image`, `font`, `CONNECT`, `no response` …).
        package var skipped: [String: Int] = [:]
        /// Entries changed on the way in, by reason.
        package var changed: [String: Int] = [:]
    }

    /// A problem in the file: where (`log.entries[3].request.url`) and what was expected.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        /// The HAR file.
        package let file: String
        /// Where in it (`log.entries[3].request.url`).
        package let path: String
        /// What was expected.
        package let message: String
        /// `file: path: message`.
        package var description: String { "\(file): \(path): \(message)" }
    }

    let file: String

    /// Reads the HAR document in `bytes`; `file` names it in problems.
    package static func read(_ bytes: [UInt8], file: String) throws(Problem) -> Result {
        let reader = HARReader(file: file)
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw Problem(file: file, path: "\(error.line):\(error.column)", message: "not valid JSON: \(error.message)")
        }
        guard case .array(let entries)? = root["log"]?["entries"] else {
            throw reader.problem("log.entries", "expected an array of entries (a HAR 1.2 document)", root["log"]?["entries"] ?? root["log"])
        }
        var result = Result()
        for (index, entry) in entries.enumerated() {
            let at = "log.entries[\(index)]"
            switch try reader.exchange(entry, at: at) {
            case .kept(var exchange):
                // A browser records a cache revalidation as 304 with the cached body filled in: a
                // client without that cache needs the 200. A bare 304 says nothing to stub.
                if exchange.status == 304 {
                    guard !exchange.responseBody.isEmpty else { result.skipped["304 revalidation", default: 0] += 1; continue }
                    exchange.status = 200
                    result.changed["304 with the cached body written as 200", default: 0] += 1
                }
                result.exchanges.append(exchange)
            case .skipped(let reason): result.skipped[reason, default: 0] += 1
            }
        }
        return result
    }

    enum Outcome {
        case kept(CapturedExchange)
        case skipped(String)
    }

    func exchange(_ entry: JSONValue, at: String) throws(Problem) -> Outcome {
        let request = try object(entry["request"], at: at + ".request")
        let response = try object(entry["response"], at: at + ".response")
        let method = try string(request["method"], at: at + ".request.method").uppercased()
        let url = try string(request["url"], at: at + ".request.url")
        if method == "CONNECT" { return .skipped("CONNECT") }
        // A method a route cannot be written for (PURGE, a tool's own): counted, not imported.
        if !RouteLoader.methods.contains(method) { return .skipped("method \(method.prefix(40))") }
        // A browser's WebSocket entry (Chrome's `_webSocketMessages`) becomes a conversation.
        let messages = try webSocketMessages(entry["_webSocketMessages"], at: at + "._webSocketMessages")
        guard let parts = HARURL(messages == nil ? url : HARURL.httpScheme(of: url)) else { return .skipped("not an http(s) URL") }
        if let messages {
            guard method == "GET" else { return .skipped("websocket not GET") }
            var exchange = CapturedExchange(method: method, scheme: parts.scheme, host: parts.host, path: parts.path, query: parts.query,
                                            requestHeaders: try pairs(request["headers"], at: at + ".request.headers"), status: 101,
                                            responseHeaders: try pairs(response["headers"], at: at + ".response.headers"))
            exchange.webSocketMessages = messages
            return .kept(exchange)
        }
        let status = try number(response["status"], at: at + ".response.status")
        if status < 100 || status > 599 { return .skipped("no response") }
        let content = response["content"] ?? .object([])
        let mimeType = content["mimeType"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        if let kind = HARReader.nonAPIKind(mimeType: mimeType, resourceType: entry["_resourceType"]?.scalarText) { return .skipped(kind) }
        var body: [UInt8] = []
        if let text = content["text"] {
            guard case .string(let t) = text else { throw problem(at + ".response.content.text", "expected a string", text) }
            if content["encoding"]?.scalarText == "base64" {
                guard let data = Data(base64Encoded: t, options: .ignoreUnknownCharacters) else {
                    throw Problem(file: file, path: at + ".response.content.text", message: "expected base64 (encoding is \"base64\")")
                }
                body = Array(data)
            } else {
                body = Array(t.utf8)
            }
        }
        // The URL's own query, decoded once; `queryString` keeps values encoded in some browsers
        // (Chrome) and decoded in others, so it is only read when the URL has none.
        var query = parts.query
        if query.isEmpty {
            query = try pairs(request["queryString"], at: at + ".request.queryString").map {
                (FormDecoding.decode($0.name, plusIsSpace: true), FormDecoding.decode($0.value, plusIsSpace: true))
            }
        }
        let requestBody = request["postData"]?["text"]?.scalarText.map { Array($0.utf8) } ?? []
        return .kept(CapturedExchange(
            method: method, scheme: parts.scheme, host: parts.host, path: parts.path, query: query,
            requestHeaders: try pairs(request["headers"], at: at + ".request.headers"), requestBody: requestBody, status: status,
            responseHeaders: try pairs(response["headers"], at: at + ".response.headers"), responseBody: body, mimeType: mimeType))
    }

    /// Why a response is not an API call, from its media type or the browser's resource type.
    static func nonAPIKind(mimeType: String?, resourceType: String?) -> String? {
        if let type = resourceType?.lowercased(), ["image", "font", "stylesheet", "script", "media", "manifest", "websocket"].contains(type) {
            return type
        }
        let media = (mimeType ?? "").lowercased()
        for (prefix, kind) in [("image/", "image"), ("font/", "font"), ("application/font", "font"), ("application/x-font", "font"),
                               ("audio/", "media"), ("video/", "media"), ("text/css", "stylesheet"),
                               ("text/javascript", "script"), ("application/javascript", "script"), ("application/x-javascript", "script")]
        where media.hasPrefix(prefix) {
            return kind
        }
        return nil
    }

    private func object(_ value: JSONValue?, at path: String) throws(Problem) -> JSONValue {
        guard let value, case .object = value else { throw problem(path, "expected an object", value) }
        return value
    }

    func string(_ value: JSONValue?, at path: String) throws(Problem) -> String {
        guard let value, case .string(let s) = value else { throw problem(path, "expected a string", value) }
        return s
    }

    private func number(_ value: JSONValue?, at path: String) throws(Problem) -> Int {
        guard let n = value?.wholeNumber(in: -999_999...999_999) else { throw problem(path, "expected a whole number", value) }
        return n
    }

    /// `[{"name": …, "value": …}]`, as HAR writes headers and query strings; absent is empty.
    func pairs(_ value: JSONValue?, at path: String) throws(Problem) -> [(name: String, value: String)] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw problem(path, "expected an array of {\"name\", \"value\"}", value) }
        var result: [(name: String, value: String)] = []
        for (index, item) in items.enumerated() {
            guard let name = item["name"]?.scalarText else { throw problem("\(path)[\(index)].name", "expected a string", item["name"]) }
            result.append((name, item["value"]?.scalarText ?? ""))
        }
        return result
    }

    func problem(_ path: String, _ expected: String, _ found: JSONValue?) -> Problem {
        Problem(file: file, path: path, message: "\(expected), found \(found?.kindDescription ?? "nothing")")
    }
}

/// The parts of a captured URL stubd keeps.
struct HARURL {
    let scheme: String
    let host: String
    let path: String
    let query: [(name: String, value: String)]

    init?(_ text: String) {
        let lower = text.lowercased()
        guard let schemeEnd = text.firstRange(of: "://"), lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        scheme = String(lower[..<schemeEnd.lowerBound])
        var rest = Substring(text[schemeEnd.upperBound...])
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) { authority = String(authority.dropLast(defaultPort.count)) }
        guard !authority.isEmpty else { return nil }
        host = authority.lowercased()
        let target = rest[authorityEnd...]
        let queryStart = target.firstIndex(of: "?")
        let rawPath = queryStart.map { target[..<$0] } ?? target
        path = rawPath.isEmpty ? "/" : String(rawPath)
        query = queryStart.map { HARURL.decodeQuery(String(target[target.index(after: $0)...])) } ?? []
    }

    static func decodeQuery(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacing("+", with: " ").percentDecoded() ?? String(s) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
