import StubCore

/// `--print-settings`: every setting's value in effect and where it came from, as JSON, so a
/// container's or a CI job's settings can be seen without starting to serve.
enum SettingsReport {
    /// What a secret's value reads as: set, and nothing more (a CI log or a shared screen keeps it).
    static let hidden = "<hidden>"

    static func json(_ settings: [Setting], _ result: SettingsReader.Result) -> String {
        let rows: [JSONValue] = settings.map { setting in
            var members: [(key: String, value: JSONValue)] = [
                ("flag", .string(setting.flag)), ("variable", .string(setting.variable)),
                ("value", setting.show(result.options).map { .string(setting.secret ? SettingsReport.hidden : $0) } ?? .null),
                ("source", .string((result.sources[setting.flag] ?? .default).rawValue)),
                ("takes", .string(setting.valueName == nil ? "switch" : setting.expectation)),
                ("usage", .string(setting.usageName)), ("help", .string(setting.help)),
                ("aliases", .array(setting.aliases.map(JSONValue.string))),
            ]
            if let note = setting.defaultNote { members.append(("default", .string(note))) }
            return .object(members)
        }
        return JSONValue.object([("settings", .array(rows))]).serialized(pretty: true)
    }
}
