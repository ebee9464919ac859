/// One setting of `stubd serve` (and the commands that share it): its flag, the `STUBD_*`
/// variable made from the flag's name, how its value is read and checked, its default and its
/// help line. The flag and the variable go through the same `apply`, so they cannot disagree.
struct Setting: Sendable {
    /// The flag, `--name`.
    let flag: String
    /// Older spellings still accepted, flag and variable alike (`--hang-cap` for `--hold-cap`).
    var aliases: [String] = []
    /// The value's placeholder in help (`PORT`); nil for a switch, which takes no value as a flag
    /// and `1`/`0` as a variable.
    let valueName: String?
    /// What the setting does, for `--help` and the README.
    let help: String
    /// What a valid value looks like, for error messages: "a port number from 0 to 65535".
    let expectation: String
    /// The default in words when it is worked out at start rather than held in `ServeOptions`.
    var defaultNote: String?
    /// A secret (`--admin-token`): `--print-settings` says it is set, never what it is.
    var secret = false
    /// Sets the value from its text; false when the text is not valid.
    let apply: @Sendable (String, inout ServeOptions) -> Bool
    /// Puts the default back (an empty value, as flag or variable, means the default).
    let reset: @Sendable (inout ServeOptions) -> Void
    /// The value as a person would write it, nil when unset.
    let show: @Sendable (ServeOptions) -> String?

    /// `STUBD_` and the flag's name in capitals, dashes as underscores: `--max-body` → `STUBD_MAX_BODY`.
    var variable: String { Setting.variable(for: flag) }

    /// This setting, its value kept out of reports.
    func keptSecret() -> Setting {
        var copy = self
        copy.secret = true
        return copy
    }

    /// Every name the flag answers to.
    var names: [String] { [flag] + aliases }

    static func variable(for flag: String) -> String {
        "STUBD_" + flag.drop { $0 == "-" }.uppercased().replacing("-", with: "_")
    }

    /// The default as help and the README state it.
    var defaultText: String? {
        defaultNote ?? show(ServeOptions())
    }

    /// A switch's value: flags give `1`; variables may say 1/0, true/false, yes/no or on/off.
    static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }
}

/// Where a setting's value came from, for `--print-settings`.
enum SettingSource: String, Sendable {
    case flag, environment, `default`
}
