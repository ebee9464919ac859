/// Bounds that more than one layer checks, defined once so the CLI, the stub files, the admin API,
/// the request controls and the server agree.
package enum Limits {
    /// The longest delay a stub file, a request control or an admin override may ask for: one hour.
    package static let maxDelayMs = 3_600_000
    /// The longest server-wide duration (`--delay`, `--hold-cap`): one day.
    package static let maxDurationMs = 86_400_000
    /// The largest admin request body (an override, a release): 64 KiB, far more than any real
    /// override needs, and little enough that no session can pin much memory with one.
    package static let maxAdminBodyBytes = 64 * 1024
    /// The longest `sequence` an override may give: 1,000 steps.
    package static let maxSequenceSteps = 1000
    /// Request body bytes a journal entry keeps (the full size is kept in `bodyBytes`).
    package static let journalBodyBytes = 8192
    /// Where the admin API lives; stubs cannot use paths under it.
    package static let adminPrefix = "/__stubd/"
    /// The header that scopes overrides, sequences and the journal to one test.
    package static let sessionHeader = "X-Stub-Session"
    /// The request header that seeds the values a template draws (`{{uuid}}`, `{{fake.name}}`).
    package static let seedHeader = "X-Stub-Seed"
    /// The path prefix that does what the session header does, for clients that cannot add a
    /// header: `/__session/<id>/api/v1/users` is `/api/v1/users` in session `<id>`.
    package static let sessionPathPrefix = "/__session/"
    /// Path bytes read to say why a near miss did not match; a longer path is judged by its start.
    package static let maxNearMissPathBytes = 2048
    /// Live journal streams (`GET /__stubd/journal/stream`) open at once: dashboards and scripts.
    package static let maxJournalStreams = 64
    /// Entries a live journal stream keeps for a reader that falls behind; older ones are dropped
    /// and the reader is told how many.
    package static let journalStreamBacklog = 5000

    /// "milliseconds from 0 to 3600000", for error messages about delays.
    package static var delayExpectation: String { "milliseconds from 0 to \(maxDelayMs)" }
}
