/// A route folder's files: each body file is a variant's, by name.
extension RouteLoader {
    /// Body files by variant name. Misnamed files are problems, not silently skipped.
    func bodyFiles(isOperation: Bool) -> [String: BodyFile] {
        var files: [String: BodyFile] = [:]
        let path = PathText.join(root, folder)
        for file in entries where file.name != "route.json" {
            let entry = file.name
            let relative = "\(folder)/\(entry)"
            if file.isDirectory {
                log.addFile(relative, "unexpected folder inside a route folder; routes do not nest (make it a sibling)")
                continue
            }
            guard StubLoader.isStubFile(entry) else { continue }
            // `greeting.message.bin`: a WebSocket message's bytes, read by the message that names it.
            if ConversationReader.isMessageFile(entry) { continue }
            // An operation route keeps its operation's document beside it, for `check --graphql`.
            if entry == RouteLoader.operationDocument {
                if !isOperation { log.addFile(relative, "an operation document belongs to an operation route; expected \"operation\" in route.json") }
                continue
            }
            let ext = PathText.pathExtension(entry).lowercased()
            var name = PathText.deletingPathExtension(entry)
            // `200.events.json`: server-sent events for variant 200.
            let isEvents = ext == "json" && name.lowercased().hasSuffix(".events")
            if isEvents { name = String(name.dropLast(".events".count)) }
            guard BodyFile.leadingStatus(name) != nil, BodyFile.isVariantName(name) else {
                log.addFile(relative, "expected a body file named <status>.<ext> or <status>-<name>.<ext> (like 200.json or 404-missing.json)")
                continue
            }
            guard let contentType = BodyFile.contentTypes[ext] else {
                log.addFile(relative, "unknown extension .\(ext); expected one of \(BodyFile.contentTypes.keys.sorted().map { "." + $0 }.joined(separator: ", "))")
                continue
            }
            if files[name] != nil {
                log.addFile(relative, "a second body file for variant \(name); expected one file per variant")
                continue
            }
            let bytes: [UInt8]
            switch StubFiles.read(PathText.join(path, entry)) {
            case .success(let read): bytes = read
            case .failure(let error):
                log.addFile(relative, error.description)
                continue
            }
            var jsonError: StubProblem?
            if ext == "json" && !isEvents {
                do { _ = try JSONParser.parse(bytes) } catch {
                    // Reported by the variant unless it is a template (checked with placeholders filled).
                    jsonError = StubProblem(file: relative, location: .position(line: error.line, column: error.column),
                                            message: "not valid JSON: \(error.message)")
                }
            }
            files[name] = BodyFile(relative: relative, bytes: bytes, contentType: isEvents ? "text/event-stream; charset=utf-8" : contentType,
                                   jsonError: jsonError, isEvents: isEvents)
        }
        return files
    }
}
