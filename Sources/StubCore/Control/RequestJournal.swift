import StubSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last N requests the server answered, oldest first: a fixed-size ring, so memory does not
/// grow with traffic. Size 0 records nothing.
public struct RequestJournal: Sendable {
    /// Bodies longer than this are cut in the journal (the full size is kept in `bodyBytes`).
    public static let bodyLimit = Limits.journalBodyBytes

    /// One recorded request.
    public struct Entry: Sendable {
        /// Increasing number, for `since` queries.
        public var id: Int
        /// The request and what was served.
        public var record: RequestRecord
    }

    /// How many entries are kept.
    public let capacity: Int
    private var ring: [Entry] = []
    /// What dropping each entry of `ring` writes to, by the same index.
    private var dropHints: [JournalDropHint] = []
    private var start = 0
    private var nextID = 1

    /// An empty journal keeping at most `capacity` entries.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        ring.reserveCapacity(min(self.capacity, 4096))
        dropHints.reserveCapacity(min(self.capacity, 4096))
    }

    /// The record as the journal keeps it (body cut at `bodyLimit`). Done before taking a lock.
    public static func trimmed(_ record: RequestRecord) -> RequestRecord {
        var cut = record
        trim(&cut)
        return cut
    }

    /// Cuts the record's body to what the journal keeps, in place (nothing to do for most).
    static func trim(_ record: inout RequestRecord) {
        guard !record.bodyIsTrimmed, record.request.body.count > bodyLimit else { return }
        record.request.body = Array(record.request.body.prefix(bodyLimit))
    }

    /// Adds a record, dropping the oldest when full. Returns the dropped entry, so a caller holding
    /// a lock can let it be freed after unlocking.
    @discardableResult
    public mutating func append(_ record: consuming RequestRecord) -> Entry? {
        guard capacity > 0 else { return nil }
        RequestJournal.trim(&record)
        let hint = record.dropHint
        // Moved, never copied: a record holds a dozen counted references, and each copy of it
        // retains and releases every one.
        var entry = Entry(id: nextID, record: consume record)
        nextID += 1
        if ring.count < capacity {
            ring.append(consume entry)
            dropHints.append(hint)
            return nil
        }
        swap(&ring[start], &entry)
        dropHints[start] = hint
        start = (start + 1) % capacity
        // The entry the next append drops: its slot, and what freeing it writes.
        Prefetch.element(start, of: ring, forWriting: true)
        dropHints[start].prefetch()
        return entry
    }

    /// The id of the last entry appended (0 before the first).
    public var lastID: Int { nextID - 1 }

    /// The entry appended last, if it is still kept.
    public var last: Entry? {
        guard !ring.isEmpty else { return nil }
        return ring[(start + ring.count - 1) % ring.count]
    }

    /// The entries with an id above `id`, oldest first (read from the newest back).
    package func entries(after id: Int) -> [Entry] {
        var newer: [Entry] = []
        var index = ring.count - 1
        while index >= 0 {
            let entry = ring[(start + index) % ring.count]
            guard entry.id > id else { break }
            newer.append(entry)
            index -= 1
        }
        return newer.reversed()
    }

    /// The id of the oldest entry kept (nil when none is).
    package var firstID: Int? { ring.isEmpty ? nil : ring[start].id }

    /// All entries, oldest first.
    public var entries: [Entry] {
        Array(ring[start...] + ring[..<start])
    }

    /// Removes the entries `shouldRemove` picks.
    public mutating func removeAll(where shouldRemove: (Entry) -> Bool) {
        let kept = entries.filter { !shouldRemove($0) }
        ring = kept
        dropHints = kept.map { $0.record.dropHint }
        start = 0
    }
}
