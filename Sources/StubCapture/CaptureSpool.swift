#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a recording's response bodies on disk, each processed once as it arrives (secrets out,
/// JSON re-indented, captured secret values scrubbed), so a long recording holds only the
/// exchanges' small parts in memory and each new exchange costs the same. Equal bodies share one
/// file. When a later exchange reveals a new secret value, the text files already kept are
/// scrubbed of it too. Not thread-safe: its owner serializes the calls.
package final class CaptureSpool {
    /// The folder the bodies are kept in (hidden, inside the stub root, so links into the stub
    /// tree stay on one file system).
    package let folder: String
    let policy: SecretPolicy
    /// What was redacted so far.
    package private(set) var report = RedactionReport()
    private var secretsSeen = 0
    private var textFiles: [String] = []
    private var known = Set<String>()

    /// Request bodies kept for `when` conditions, at most: a larger one is not kept.
    static let maxRequestBody = 64 * 1024

    /// A spool in `folder`, created when the first body arrives.
    package init(folder: String, policy: SecretPolicy) {
        self.folder = folder
        self.policy = policy
    }

    /// `exchange` with its response body processed into a file (`spooledBody`) and out of memory.
    package func spool(_ exchange: CapturedExchange) throws(CaptureWriteError) -> CapturedExchange {
        CaptureLayout.noteRequestSecrets(exchange, policy: policy, report: &report)
        var kept = exchange
        let kind = BodyKind.of(media: exchange.mediaType, body: exchange.responseBody)
        var body = exchange.responseBody
        if case .json = kind, !body.isEmpty { body = JSONRewriter(policy: policy).rewrite(body, report: &report, place: "response body field") }
        let isText = ["json", "txt", "html", "xml", "csv"].contains(kind.ext)
        if isText, let text = String(validating: body, as: UTF8.self) {
            let (clean, replaced) = report.scrub(text)
            if replaced > 0 { body = Array(clean.utf8); report.countScrubbed(replaced) }
        }
        if report.secretCount > secretsSeen {
            secretsSeen = report.secretCount
            try rescrub()
        }
        let identity = CaptureSpool.identity(body)
        let path = folder + "/" + identity + "." + kind.ext
        if known.insert(path).inserted {
            try write(body, to: path)
            if isText { textFiles.append(path) }
        }
        kept.responseBody = []
        kept.spooledBody = SpooledBody(path: path, fileExtension: kind.ext, identity: identity, size: body.count)
        if kept.requestBody.count > CaptureSpool.maxRequestBody { kept.requestBody = [] }
        return kept
    }

    /// Deletes the folder (once the bodies are linked into the stub tree).
    package func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Scrubs every text body kept so far of the secret values known now.
    private func rescrub() throws(CaptureWriteError) {
        for path in textFiles {
            guard case .success(let bytes) = StubFiles.read(path), let text = String(validating: bytes, as: UTF8.self) else { continue }
            let (clean, replaced) = report.scrub(text)
            guard replaced > 0 else { continue }
            report.countScrubbed(replaced)
            // The name stays: links already made share the old bytes, which the next flush replaces.
            // Its result does not matter: the atomic write below gives the name new bytes either way.
            unlink(path)
            try write(Array(clean.utf8), to: path)
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws(CaptureWriteError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CaptureWriteError(path: path, problem: "cannot be written: \(error)")
        }
    }

    /// A name for `bytes`: their FNV-1a hash and size, the same in every run.
    static func identity(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16) + "-" + String(bytes.count)
    }
}
