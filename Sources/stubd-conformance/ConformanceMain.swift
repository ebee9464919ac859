import Foundation
import StubCore
import StubSchema

/// `stubd-conformance schema-suite DIR [--failures]`: runs the draft4 and draft2020-12 folders of
/// a JSON Schema Test Suite checkout and prints a table per file, with totals; `--failures` lists
/// each failed and skipped case.
enum ConformanceMain {
    static func run(_ arguments: [String]) {
        guard arguments.count >= 2, arguments[0] == "schema-suite" else {
            print("usage: stubd-conformance schema-suite TESTS_DIR [--failures]")
            exit(2)
        }
        let root = arguments[1]
        let verbose = arguments.contains("--failures")
        var exitCode: Int32 = 0
        for (folder, dialect) in [("draft4", SchemaDialect.draft4), ("draft2020-12", .draft2020)] {
            let files = suiteFiles(root + "/" + folder)
            guard !files.isEmpty else { continue }
            print("| \(folder) file | cases | passed | skipped | failed |")
            print("|---|---:|---:|---:|---:|")
            var total = SchemaSuite.FileResult(name: "total")
            for file in files {
                guard let data = FileManager.default.contents(atPath: root + "/" + folder + "/" + file) else { continue }
                let formats = file.hasPrefix("optional/format/") || file.hasPrefix("optional/format-")
                do {
                    let r = try SchemaSuite.run(Array(data), name: file, dialect: dialect, assertFormats: formats || (dialect == .draft4 && file == "format.json"))
                    print("| \(file) | \(r.cases) | \(r.passed) | \(r.skipped.count) | \(r.failures.count) |")
                    total.cases += r.cases; total.passed += r.passed; total.skipped += r.skipped; total.failures += r.failures
                    if verbose { for line in r.failures { print("    FAIL \(file): \(line)") }; for line in r.skipped { print("    SKIP \(file): \(line)") } }
                } catch {
                    print("| \(file) | not valid JSON: \(error.message) | | | |")
                    exitCode = 1
                }
            }
            print("| **\(folder) total** | \(total.cases) | \(total.passed) | \(total.skipped.count) | \(total.failures.count) |")
            print("")
        }
        exit(exitCode)
    }

    /// The suite's files under `folder`, main files first, then `optional/`, sorted.
    static func suiteFiles(_ folder: String) -> [String] {
        guard let names = FileManager.default.subpaths(atPath: folder) else { return [] }
        let json = names.filter { $0.hasSuffix(".json") }
        return json.filter { !$0.contains("/") }.sorted() + json.filter { $0.contains("/") }.sorted()
    }
}
