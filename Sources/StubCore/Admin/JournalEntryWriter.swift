#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A journal entry as the admin API shows it, written as JSON bytes in one pass: the one owner of
/// the entry's format. `GET /__stubd/journal` and the live stream read it back or send it as is;
/// a fleet sends it to the store for every request, where building a `JSONValue` first cost more
/// than the request.
enum JournalEntryWriter {
    /// Appends the entry's JSON to `out`; with `replica`, a last `replica` member names the
    /// replica that served it (a fleet's journal).
    static func write(_ r: RequestRecord, id: Int, replica: String? = nil, into out: inout [UInt8]) {
        let request = r.request
        var w = Writer(out: out)
        out = []
        w.open()
        w.key("id"); w.int(id)
        w.key("time"); w.time(r.receivedAt)
        w.key("method"); w.string(request.method)
        w.key("scheme"); w.string(request.scheme.rawValue)
        w.key("httpVersion"); w.string(r.httpVersion.rawValue)
        w.key("path"); w.string(request.path)
        w.key("query"); w.value(AdminAPI.queryJSON(request.query))
        w.key("pathParameters"); w.pairs(r.pathParameters.map { ($0.name, $0.value) })
        var seen = Set<String>()
        w.key("headers"); w.pairs(request.headers.filter { seen.insert($0.name).inserted })
        let text = String(validating: request.body, as: UTF8.self)
        w.key("body"); w.string(text ?? Data(request.body).base64EncodedString())
        w.key("bodyEncoding"); w.string(text == nil ? "base64" : "utf8")
        w.key("bodyBytes"); w.int(r.bodyBytes)
        w.key("bodyTruncated"); w.bool(r.bodyBytes > request.body.count)
        w.key("route"); w.optional(r.routeID)
        w.key("operation"); w.optional(r.operation)
        w.key("variant"); w.optional(r.variant)
        w.key("status"); w.int(r.status)
        w.key("delayMs"); w.int(r.delayMs)
        w.key("elapsedMs"); w.raw(JSONNumber.format((r.elapsedMs * 1000).rounded() / 1000))
        w.key("fault"); w.optional(r.fault?.rawValue)
        w.key("proxied"); w.bool(r.proxied)
        w.key("contract")
        if let contract = r.contract {
            w.value(.array(contract.map { .object([("where", .string($0.location)), ("problem", .string($0.problem))]) }))
        } else {
            w.raw("null")
        }
        w.key("eventsSent"); if let stream = r.stream { w.int(stream.eventsSent) } else { w.raw("null") }
        // True when the client left early; false for a stream that ended as planned; else null.
        w.key("clientGone"); if r.clientGone { w.bool(true) } else if r.stream == nil { w.raw("null") } else { w.bool(false) }
        w.key("session"); w.optional(r.session)
        w.key("selection"); w.value(AdminAPI.selectionJSON(r))
        if !r.stateChanges.isEmpty { w.key("stateChanges"); w.value(.array(r.stateChanges.map(JSONValue.string))) }
        w.key("nearMisses"); w.value(r.proxied ? .null : (r.nearMisses ?? .null))
        if let replica { w.key("replica"); w.string(replica) }
        w.close()
        out = w.out
    }

    /// The entry as bytes.
    static func bytes(_ r: RequestRecord, id: Int, replica: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(r, id: id, replica: replica, into: &out)
        return out
    }

    /// Appends JSON pieces; commas between members come from `key`.
    private struct Writer {
        var out: [UInt8]
        var first = true

        mutating func open() { out.append(UInt8(ascii: "{")); first = true }
        mutating func close() { out.append(UInt8(ascii: "}")) }

        mutating func key(_ name: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }

        mutating func time(_ date: Date) {
            out.append(UInt8(ascii: "\""))
            ISO8601.write(date, into: &out)
            out.append(UInt8(ascii: "\""))
        }

        mutating func string(_ s: String) { JSONValue.writeEscaped(s, to: &out) }
        mutating func int(_ n: Int) {
            if n < 0 { out.append(UInt8(ascii: "-")) }
            var magnitude = n.magnitude, divisor: UInt = 1
            while magnitude / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
                magnitude %= divisor
                divisor /= 10
            }
        }
        mutating func bool(_ b: Bool) { out += (b ? "true" : "false").utf8 }
        mutating func raw(_ text: String) { out += text.utf8 }
        mutating func optional(_ s: String?) { if let s { string(s) } else { raw("null") } }
        mutating func value(_ v: JSONValue) { out += v.serializedBytes() }

        mutating func pairs(_ pairs: [(String, String)]) {
            out.append(UInt8(ascii: "{"))
            for (i, pair) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeEscaped(pair.0, to: &out)
                out.append(UInt8(ascii: ":"))
                JSONValue.writeEscaped(pair.1, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
