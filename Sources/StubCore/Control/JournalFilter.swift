#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Filters for journal queries (`route`, `method`, `path`, `since`, `limit`).
public struct JournalFilter: Sendable {
    /// Route id.
    public var route: String?
    /// Method, case-insensitive.
    public var method: String?
    /// Exact request path.
    public var path: String?
    /// Only entries with a larger id.
    public var sinceID: Int?
    /// Only entries received at or after this time.
    public var sinceTime: Date?
    /// At most this many (the newest).
    public var limit: Int?
    /// GraphQL operation name (a batch matches when any of its operations does).
    public var operation: String?
    /// Every session's entries, not only those of the scope asked about (`scope=all`).
    public var allSessions = false

    /// Makes a filter; nil fields do not filter.
    public init(route: String? = nil, method: String? = nil, path: String? = nil, sinceID: Int? = nil, sinceTime: Date? = nil, limit: Int? = nil) {
        self.route = route
        self.method = method
        self.path = path
        self.sinceID = sinceID
        self.sinceTime = sinceTime
        self.limit = limit
    }

    func matches(_ entry: RequestJournal.Entry) -> Bool {
        let r = entry.record
        return matches(route: r.routeID, operation: r.operation, method: r.method, path: r.path, id: entry.id, time: r.receivedAt)
    }

    /// The one test of an entry's fields, for the local journal and for a fleet's entries read
    /// back as JSON (`time` is only read when the filter has a `since` time).
    func matches(route entryRoute: String?, operation entryOperation: String?, method entryMethod: String?, path entryPath: String?,
                 id: Int, time: @autoclosure () -> Date?) -> Bool {
        if let route, entryRoute != route { return false }
        if let operation, !(entryOperation?.split(separator: ",").contains { $0 == operation } ?? false) { return false }
        if let method, entryMethod != method.uppercased() { return false }
        // The journal keeps paths as sent; a filter value arrives decoded, so either form matches.
        if let path, let sent = entryPath, sent != path && PathDecoding.decodedWhole(sent) != path { return false }
        if let sinceID, id <= sinceID { return false }
        if let sinceTime, let received = time(), received < sinceTime { return false }
        return true
    }
}
