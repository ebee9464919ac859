#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// The status of an example saved without a `code`: Postman keeps the status line's text
/// (`"status": "Not Found"`) and its mock server answers with the code that text names. So does
/// the import, saying which rule gave the code.
extension PostmanReader {
    /// The code `text` names and the rule that read it: a leading number (`"404 Not Found"`), or a
    /// standard reason phrase in any letter case (`"not found"`); nil for anything else.
    static func status(fromText text: String) -> (code: Int, rule: String)? {
        let trimmed = text.trimmingWhitespace()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        if digits.count == 3, let code = Int(digits), (100...599).contains(code),
           trimmed.count == 3 || trimmed.dropFirst(3).first == " " {
            return (code, "the number its status text \"\(trimmed.prefix(60))\" starts with")
        }
        guard let code = reasonPhrases[phraseKey(trimmed)] else { return nil }
        return (code, "its status text \"\(trimmed.prefix(60))\", the reason phrase of \(code)")
    }

    /// A phrase's letters alone, lower-cased: `I'm a Teapot` and `im a teapot` are one phrase.
    static func phraseKey(_ text: String) -> String {
        String(text.lowercased().filter { $0.isASCII && $0.isLetter })
    }

    /// The standard reason phrases (RFC 9110 and the registry's others), with the older wordings
    /// still in use (`Payload Too Large`, `Unprocessable Entity`).
    static let reasonPhrases: [String: Int] = {
        let table: [(Int, [String])] = [
            (100, ["Continue"]), (101, ["Switching Protocols"]), (102, ["Processing"]), (103, ["Early Hints"]),
            (200, ["OK"]), (201, ["Created"]), (202, ["Accepted"]), (203, ["Non-Authoritative Information"]), (204, ["No Content"]),
            (205, ["Reset Content"]), (206, ["Partial Content"]), (207, ["Multi-Status"]), (208, ["Already Reported"]), (226, ["IM Used"]),
            (300, ["Multiple Choices"]), (301, ["Moved Permanently"]), (302, ["Found", "Moved Temporarily"]), (303, ["See Other"]),
            (304, ["Not Modified"]), (305, ["Use Proxy"]), (307, ["Temporary Redirect"]), (308, ["Permanent Redirect"]),
            (400, ["Bad Request"]), (401, ["Unauthorized"]), (402, ["Payment Required"]), (403, ["Forbidden"]), (404, ["Not Found"]),
            (405, ["Method Not Allowed"]), (406, ["Not Acceptable"]), (407, ["Proxy Authentication Required"]),
            (408, ["Request Timeout"]), (409, ["Conflict"]), (410, ["Gone"]), (411, ["Length Required"]), (412, ["Precondition Failed"]),
            (413, ["Content Too Large", "Payload Too Large", "Request Entity Too Large"]),
            (414, ["URI Too Long", "Request-URI Too Long"]), (415, ["Unsupported Media Type"]),
            (416, ["Range Not Satisfiable", "Requested Range Not Satisfiable"]), (417, ["Expectation Failed"]), (418, ["I'm a teapot"]),
            (421, ["Misdirected Request"]), (422, ["Unprocessable Content", "Unprocessable Entity"]), (423, ["Locked"]),
            (424, ["Failed Dependency"]), (425, ["Too Early"]), (426, ["Upgrade Required"]), (428, ["Precondition Required"]),
            (429, ["Too Many Requests"]), (431, ["Request Header Fields Too Large"]), (451, ["Unavailable For Legal Reasons"]),
            (500, ["Internal Server Error"]), (501, ["Not Implemented"]), (502, ["Bad Gateway"]), (503, ["Service Unavailable"]),
            (504, ["Gateway Timeout"]), (505, ["HTTP Version Not Supported"]), (506, ["Variant Also Negotiates"]),
            (507, ["Insufficient Storage"]), (508, ["Loop Detected"]), (510, ["Not Extended"]), (511, ["Network Authentication Required"]),
        ]
        var phrases: [String: Int] = [:]
        for (code, names) in table { for name in names { phrases[phraseKey(name)] = code } }
        return phrases
    }()
}
