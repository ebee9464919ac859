/// Reads a table of settings from `STUBD_*` variables, then from flags, which override them:
/// both through each setting's own `apply`, so a flag and its variable accept the same values,
/// fail with the same words, and treat an empty value the same way (as the default).
struct SettingsReader {
    let settings: [Setting]
    /// Flags the command takes beyond the table (`--print-settings`), set aside when met.
    var commandSwitches: Set<String> = []

    /// What was read: the options, where each setting's value came from, the command's own
    /// switches that were given, and the positional arguments.
    struct Result {
        var options: ServeOptions
        var sources: [String: SettingSource]
        var switches: Set<String>
        var positionals: [String]
    }

    func read(_ arguments: [String], environment: [String: String], into start: ServeOptions = ServeOptions()) throws(UsageError) -> Result {
        var result = Result(options: start, sources: [:], switches: [], positionals: [])
        for setting in settings {
            // The first non-empty variable among the setting's names; an empty one is unset.
            guard let (variable, value) = setting.names.lazy.map({ (Setting.variable(for: $0), environment[Setting.variable(for: $0)]) })
                .first(where: { $0.1?.isEmpty == false }) else { continue }
            guard setting.apply(value!, &result.options) else { throw SettingsReader.invalid(setting, source: variable, value: value!) }
            result.sources[setting.flag] = .environment
        }
        var scanner = ArgumentScanner(arguments)
        while let option = scanner.nextOption() {
            if commandSwitches.contains(option) {
                result.switches.insert(option)
                continue
            }
            guard let setting = settings.first(where: { $0.names.contains(option) }) else { throw ArgumentScanner.unknown(option) }
            let value = setting.valueName == nil ? "1" : try scanner.value(for: option)
            if value.isEmpty {
                setting.reset(&result.options)
            } else if !setting.apply(value, &result.options) {
                throw SettingsReader.invalid(setting, source: option, value: value)
            }
            result.sources[setting.flag] = .flag
        }
        result.positionals = scanner.positionals
        return result
    }

    /// The error for a value a setting does not take, worded the same for its flag and its variable.
    static func invalid(_ setting: Setting, source: String, value: String) -> UsageError {
        UsageError(message: "\(source) expects \(setting.expectation), got \"\(TerminalText.escaped(String(value.prefix(200))))\"")
    }
}
