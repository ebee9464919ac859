import StubCapture
import StubCore
import StubServer

/// Writes an imported layout, checks the result loads, and prints what was made and redacted.
enum CaptureReport {
    static func writeAndCheck(_ layout: CaptureLayout, into stubs: String, overwrite: Bool, skipped: [String: Int], total: Int) -> Int32 {
        guard total > 0 else {
            StubdCommand.printError("stubd: no API requests to import\(skipped.isEmpty ? "" : " (skipped: \(skippedText(skipped)))")")
            return 1
        }
        do { try StubTreeWriter(root: stubs).write(layout, overwrite: overwrite) } catch {
            StubdCommand.printError("stubd: \(stubs)/\(error)")
            return 1
        }
        let routes = layout.services.reduce(0) { $0 + $1.routes.count }
        let variants = layout.services.reduce(0) { $0 + $1.routes.reduce(0) { $0 + $1.variants.count } }
        print("Imported \(total) request(s) into \(stubs): \(layout.services.count) service(s), \(routes) route(s), \(variants) variant(s)")
        for line in layout.summary { print("  \(line)") }
        if !skipped.isEmpty { print("Skipped: \(skippedText(skipped))") }
        if layout.redactions.lines.isEmpty {
            print("Redacted: nothing")
        } else {
            print("Redacted (written as REDACTED or left out):")
            for line in layout.redactions.lines { print("  \(line)") }
        }
        switch StubLoader.load(directory: stubs) {
        case .success(let catalog):
            print("\(stubs): OK, \(catalog.routes.count) routes (stubd check)")
            return 0
        case .failure(let failure):
            StubdCommand.printError("stubd: the imported stubs do not load together with what was in \(stubs):\n\(failure)")
            return 1
        }
    }

    static func skippedText(_ skipped: [String: Int]) -> String {
        skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
