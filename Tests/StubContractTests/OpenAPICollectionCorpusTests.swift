import Foundation
import StubContract
import StubCore
import Testing
import StubTestSupport

/// `import-openapi --collections` on the real documents in ../shared/corpus (Stripe, OpenAI,
/// DigitalOcean, the OpenAPI Initiative's examples; `STUBD_CORPUS` names the corpus folder where
/// it is elsewhere, as from a git worktree): each imports, every collection's route.json and seed
/// are whole, the other routes are written as without the option, and some document has
/// collections. The counts are printed for bench/RESULTS.md.
@Suite(.timeLimit(.minutes(15)),
       .enabled(if: OpenAPICorpus.folder != nil, "no OpenAPI corpus at ../shared/corpus/openapi (or $STUBD_CORPUS); see bench/conformance.py"))
struct OpenAPICollectionCorpusTests {

    /// The documents bench/conformance.py imports, relative to the corpus, those that are there.
    static func documents(in corpus: URL) -> [String] {
        var found = ["openapi/stripe/spec3.yaml", "openapi/openai/openapi.yaml", "openapi/digitalocean/specification/DigitalOcean-public.v2.yaml"]
        let examples = corpus.appendingPathComponent("openapi/oai-examples")
        let enumerator = FileManager.default.enumerator(atPath: examples.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".json") || relative.hasSuffix(".yaml"), !relative.contains("petstore-separate") || relative.hasSuffix("/swagger.json") else { continue }
            found.append("openapi/oai-examples/\(relative)")
        }
        return found.filter { FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0).path) }.sorted()
    }

    /// A refusal's kind, for the tally: its reason with the paths taken out.
    static func kind(_ line: String) -> String {
        let reason = line.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? line
        let kinds = ["no GET (list) or POST", "no GET on", "no PUT, PATCH or DELETE", "a collection reads JSON", "wraps the object", "has no field",
                     "a collection makes integer or string ids", "has no type", "told apart", "not a list", "not of objects", "without an array",
                     "not an object", "no example of the object", "no 2xx"]
        return kinds.first { reason.contains($0) } ?? reason
    }

    @Test func theCorpusImportsWithCollectionsAndSomeDocumentsHaveThem() throws {
        let corpus = try #require(OpenAPICorpus.folder)
        var totals = (documents: 0, withCollections: 0, collections: 0, refused: 0, seeded: 0)
        var refusals: [String: Int] = [:]
        for relative in OpenAPICollectionCorpusTests.documents(in: corpus) {
            let path = corpus.appendingPathComponent(relative)
            // The OAI's split example refers to ../common: its folder tree is the parent's (as in bench/conformance.py).
            let root = relative.contains("petstore-separate") ? path.deletingLastPathComponent().deletingLastPathComponent().path : nil
            let document = try OpenAPIDocument(path: path.path, specRoot: root)
            let with = OpenAPIImporter(document, collections: true), without = OpenAPIImporter(document)
            var seeded = 0
            var collectionFolders = Set<String>()
            for file in with.files where file.path.hasSuffix("/route.json") {
                let route = try JSONParser.parse(file.bytes)
                guard let collection = route["collection"] else { continue }
                let folder = String(file.path.dropLast("/route.json".count))
                collectionFolders.insert(folder)
                #expect(route["path"]?.scalarText?.hasPrefix("/") == true && route["method"] == nil, "\(relative): \(file.path)")
                let seedName = try #require(collection["seed"]?.scalarText, "\(relative): \(file.path)")
                let seedFile = try #require(with.files.first { $0.path == "\(folder)/\(seedName)" }, "\(relative): \(folder)/\(seedName)")
                guard case .array(let objects) = try JSONParser.parse(seedFile.bytes), let id = collection["id"]?.scalarText else {
                    Issue.record("\(relative): \(seedFile.path) is not an array, or the collection names no id")
                    continue
                }
                let integers = collection["ids"]?.scalarText == "integer"
                for object in objects {
                    let value = object[id]
                    #expect(integers ? value?.wholeNumber(in: Int.min...Int.max) != nil : value?.scalarText != nil, "\(relative): \(seedFile.path): \(object.serialized())")
                }
                seeded += objects.count
            }
            #expect(collectionFolders.count == with.collectionCount, "\(relative)")
            // Everything outside the collections is what the import without the option writes.
            let before = Dictionary(without.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            for file in with.files where !collectionFolders.contains(String(file.path.split(separator: "/").dropLast().joined(separator: "/"))) {
                #expect(before[file.path] == file.bytes, "\(relative): \(file.path) differs from the import without --collections")
            }
            let refused = with.collectionReport.count - with.collectionCount
            for line in with.collectionReport.dropFirst(with.collectionCount) { refusals[OpenAPICollectionCorpusTests.kind(line), default: 0] += 1 }
            print("collections: \(relative): \(document.operations.count) operations, \(with.collectionReport.count) candidates, "
                  + "\(with.collectionCount) collections (\(seeded) seed objects), \(refused) imported as routes; "
                  + "routes \(without.routeCount) -> \(with.routeCount - with.collectionCount) + \(with.collectionCount) collections")
            for line in with.collectionReport.prefix(min(3, with.collectionCount)) { print("collections:   \(line)") }
            totals.documents += 1
            totals.withCollections += with.collectionCount > 0 ? 1 : 0
            totals.collections += with.collectionCount
            totals.refused += refused
            totals.seeded += seeded
        }
        print("collections: total: \(totals.documents) documents, \(totals.withCollections) with collections, \(totals.collections) collections "
              + "(\(totals.seeded) seed objects), \(totals.refused) candidates imported as routes")
        for (kind, count) in refusals.sorted(by: { $0.value > $1.value }) { print("collections:   refused \(count)x: \(kind)") }
        #expect(totals.withCollections >= 1)
    }
}

/// Where the corpus is: `$STUBD_CORPUS`, else ../shared/corpus beside the checkout; nil when
/// neither has the OpenAPI documents.
enum OpenAPICorpus {
    static let folder: URL? = {
        let given = ProcessInfo.processInfo.environment["STUBD_CORPUS"].map { URL(fileURLWithPath: $0) }
        let beside = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return [given, beside].compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("openapi").path) }
    }()
}
