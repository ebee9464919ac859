import StubCapture
import StubCore
import StubServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an imported layout all or nothing (taken back unless the result loads), and prints
/// what was made and redacted.
enum CaptureReport {
    static func writeAndCheck(_ layout: CaptureLayout, into stubs: String, overwrite: Bool, skipped: [String: Int], total: Int,
                              changed: [String: Int] = [:], notes: [String] = []) -> Int32 {
        guard total > 0 else {
            StubdCommand.printError("stubd: no API requests to import\(skipped.isEmpty ? "" : " (skipped: \(skippedText(skipped)))")")
            return 1
        }
        let rootExisted = FileKind.of(stubs) == .directory
        let staged: StagedWrite
        do { staged = try StubTreeWriter(root: stubs).place(files: layout.files, overwrite: overwrite) } catch {
            StubdCommand.printError("stubd: \(stubs)/\(error)")
            return 1
        }
        let loaded = StubLoader.load(directory: stubs)
        if case .failure(let failure) = loaded {
            staged.rollback()
            // Only a folder this run made, and left empty, goes: one holding anything stays, as it should.
            if !rootExisted { rmdir(stubs) }
            StubdCommand.printError("stubd: the imported stubs do not load together with what was in \(stubs):\n\(failure)\nstubd: nothing written to \(stubs)")
            return 1
        }
        staged.commit()
        let routes = layout.services.reduce(0) { $0 + $1.routes.count }
        let variants = layout.services.reduce(0) { $0 + $1.routes.reduce(0) { $0 + $1.variants.count } }
        print("Imported \(total) request(s) into \(stubs): \(layout.services.count) service(s), \(routes) route(s), \(variants) variant(s)")
        for line in layout.summary { print("  \(line)") }
        if !skipped.isEmpty { print("Skipped: \(skippedText(skipped))") }
        if !changed.isEmpty { print("Changed: \(skippedText(changed))") }
        if !notes.isEmpty {
            print("Assumed:")
            for line in notes { print("  \(line)") }
        }
        if layout.redactions.lines.isEmpty {
            print("Redacted: nothing")
        } else {
            print("Redacted (written as REDACTED or left out):")
            for line in layout.redactions.lines { print("  \(line)") }
        }
        if case .success(let catalog) = loaded { print("\(stubs): OK, \(catalog.routes.count) routes (stubd check)") }
        return 0
    }

    static func skippedText(_ skipped: [String: Int]) -> String {
        skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
