import Foundation
import Testing
import StubTestSupport

/// The settings of `stubd serve` as one table: every flag and its `STUBD_*` variable take the
/// same values, fail with the same words and treat an empty value alike, and `--help` and the
/// README list exactly what `--print-settings` reports.
@Suite(.timeLimit(.minutes(3))) struct SettingsTableTests {
    struct Row {
        let flag, variable, usage, help, takes: String
        let value, defaultNote: String?
        let aliases: [String]
    }

    /// The settings as the binary reports them, from an environment with no `STUBD_*` variable.
    func report(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> (rows: [Row], result: Curl.Result) {
        let result = try await Subprocess.run(Repository.stubdBinary, ["serve", "--print-settings"] + arguments,
                                              environment: ["PATH": "/usr/bin:/bin", "HOME": "/home/settings-test"].merging(environment) { $1 })
        guard result.exitCode == 0 else { return ([], result) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["settings"] as? [[String: Any]]).map { row in
            Row(flag: row["flag"] as? String ?? "", variable: row["variable"] as? String ?? "", usage: row["usage"] as? String ?? "",
                help: row["help"] as? String ?? "", takes: row["takes"] as? String ?? "", value: row["value"] as? String,
                defaultNote: row["default"] as? String, aliases: row["aliases"] as? [String] ?? [])
        }
        return (rows, result)
    }

    /// A value each kind of setting takes, and the settings another one needs to be accepted.
    static func sample(_ row: Row) -> String {
        switch row.takes {
        case let t where t.hasPrefix("a port number"): "4321"
        case let t where t.hasPrefix("a whole number from"): String(t.split(separator: " ").last!)
        case let t where t.hasPrefix("a duration"): "7m"
        case let t where t.hasPrefix("a size"): "64KiB"
        case let t where t.hasPrefix("an http"): "http://127.0.0.1:9/base"
        case let t where t.hasPrefix("an existing, readable file"): "/etc/hostname"
        case let t where t.hasPrefix("an existing folder"): "/tmp"
        case let t where t.hasPrefix("localhost or"): "127.0.0.2"
        case let t where t.hasPrefix("a redis://"): "redis://127.0.0.1:9"
        case let t where t.contains(" or ") && !t.contains(","): String(t.split(separator: " ").last!)
        case let t where t.contains(", "): String(t.split(separator: " ").last!)
        default: "/tmp/settings-sample"
        }
    }

    static let needs: [String: [String: String]] = [
        "--openapi-enforce": ["STUBD_OPENAPI": "/etc/hostname"],
        "--state-password-file": ["STUBD_STATE": "redis://127.0.0.1:9"],
        "--state-ca": ["STUBD_STATE": "redis://127.0.0.1:9"],
        "--replica": ["STUBD_STATE": "redis://127.0.0.1:9"],
        "--record-unmatched": ["STUBD_PROXY_UNMATCHED": "http://127.0.0.1:9"],
    ]

    @Test func everyFlagAndItsVariableBehaveTheSame() async throws {
        let defaults = try await report().rows
        #expect(defaults.count >= 30)
        for row in defaults {
            #expect(row.variable == "STUBD_" + row.flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_"))
            let needs = SettingsTableTests.needs[row.flag] ?? [:]
            let isSwitch = row.takes == "switch"
            let value = isSwitch ? "1" : SettingsTableTests.sample(row)
            let byFlag = try await report(isSwitch ? [row.flag] : [row.flag, value], environment: needs)
            let byVariable = try await report(environment: needs.merging([row.variable: value]) { $1 })
            let flagValue = byFlag.rows.first { $0.flag == row.flag }?.value
            #expect(byFlag.result.exitCode == 0 && flagValue != row.value, "\(row.flag) \(value): \(byFlag.result.stderr)")
            #expect(flagValue == byVariable.rows.first { $0.flag == row.flag }?.value, "\(row.flag) and \(row.variable) disagree on \(value)")
            for alias in row.aliases {
                let byAlias = try await report(isSwitch ? [alias] : [alias, value], environment: needs)
                #expect(byAlias.rows.first { $0.flag == row.flag }?.value == flagValue, "\(alias) is not an alias of \(row.flag)")
            }
            // An empty value is the default, as a flag and as a variable.
            if !isSwitch {
                let emptyFlag = try await report([row.flag, ""], environment: needs.merging([row.variable: value]) { $1 })
                let emptyVariable = try await report(environment: needs.merging([row.variable: ""]) { $1 })
                #expect(emptyFlag.rows.first { $0.flag == row.flag }?.value == row.value, "\(row.flag) \"\"")
                #expect(emptyVariable.rows.first { $0.flag == row.flag }?.value == row.value, "\(row.variable)=\"\"")
            }
            // A value the setting does not take fails the same way from both places.
            guard row.takes != "a value", row.takes != "a path" else { continue }
            let bad = "nope!"
            let badFlag = isSwitch ? nil : try await report([row.flag, bad], environment: needs)
            let badVariable = try await report(environment: needs.merging([row.variable: bad]) { $1 })
            #expect(badVariable.result.exitCode == 2
                    && badVariable.result.stderr.hasPrefix("error: \(row.variable) expects \(isSwitch ? "1 or 0" : row.takes)"), "\(badVariable.result.stderr)")
            if let badFlag {
                #expect(badFlag.result.exitCode == 2 && badFlag.result.stderr.hasPrefix("error: \(row.flag) expects \(row.takes), got \"nope!\""),
                        "\(badFlag.result.stderr)")
            }
        }
    }

    @Test func boundsAreTheSameForFlagAndVariable() async throws {
        for (flag, variable, over) in [("--journal-size", "STUBD_JOURNAL_SIZE", "10000001"), ("--max-sessions", "STUBD_MAX_SESSIONS", "0"),
                                       ("--session-ttl", "STUBD_SESSION_TTL", "500ms"), ("--port", "STUBD_PORT", "65536")] {
            let byFlag = try await report([flag, over])
            let byVariable = try await report(environment: [variable: over])
            #expect(byFlag.result.exitCode == 2 && byVariable.result.exitCode == 2, "\(flag) \(over)")
            let flagError = byFlag.result.stderr.prefix { $0 != "\n" }, variableError = byVariable.result.stderr.prefix { $0 != "\n" }
            #expect(flagError.replacingOccurrences(of: flag, with: "X") == variableError.replacingOccurrences(of: variable, with: "X"), "\(flagError)")
        }
        // HTTPS: the port alone turns it on, as a flag and as a variable; STUBD_TLS=0 keeps it off.
        for (arguments, environment) in [(["--tls-port", "9443"], [:]), ([], ["STUBD_TLS_PORT": "9443"])] {
            let on = try await report(arguments, environment: environment)
            #expect(on.rows.first { $0.flag == "--tls" }?.value == "1", "\(arguments) \(environment)")
        }
        let off = try await report(environment: ["STUBD_TLS_PORT": "9443", "STUBD_TLS": "0"])
        #expect(off.rows.first { $0.flag == "--tls" }?.value == "0")
    }

    /// Values a setting cannot use stop `serve` before anything starts, with exit 2 and the
    /// setting named; what they hold is echoed escaped, never as terminal controls.
    @Test func everyUnusableValueExitsTwoNamingItsSettingEscaped() async throws {
        let stubs = Repository.shippedStubs.path
        let cases: [([String], String)] = [
            (["--stubs", "/nonexistent/stubs"], "--stubs expects an existing folder"),
            (["--host", "bad host"], "--host expects localhost or an IPv4 or IPv6 address"),
            (["--host", "example.invalid"], "--host expects localhost or an IPv4 or IPv6 address"),
            (["--state", "redis://"], "--state expects a redis://"),
            (["--state", "ftp://x"], "--state expects a redis://"),
            (["--tls-dir", "/nonexistent/tls"], "--tls-dir expects an existing folder"),
            (["--openapi", "/nonexistent.yaml"], "--openapi expects an existing, readable file"),
            (["--openapi", "/tmp"], "--openapi expects an existing, readable file"),
            (["--state", "redis://127.0.0.1:9", "--state-ca", "/nonexistent"], "--state-ca expects an existing, readable file"),
            (["--state", "redis://127.0.0.1:9", "--state-password-file", "/etc"], "--state-password-file expects an existing, readable file"),
            (["--proxy-ca", "/nonexistent"], "--proxy-ca expects an existing, readable file"),
            (["--spec-root", "/nonexistent"], "--spec-root expects an existing folder"),
            (["--replica", "a"], "--replica needs --state URL"),
            (["--port", "\u{1B}[31m1"], "--port expects a port number"),
        ]
        for (arguments, message) in cases {
            let run = try await Subprocess.run(Repository.stubdBinary, ["serve", "--port", "0"] + (arguments.contains("--stubs") ? [] : ["--stubs", stubs]) + arguments)
            #expect(run.exitCode == 2 && run.stderr.hasPrefix("error: \(message)"), "\(arguments): \(run.exitCode) \(run.stderr.prefix(200))")
            #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(arguments) echoed a control character")
        }
        let escaped = try await Subprocess.run(Repository.stubdBinary, ["serve", "--stubs", "/tmp/\u{1B}[2J\u{202E}x"])
        #expect(escaped.exitCode == 2 && escaped.stderr.hasPrefix(#"error: --stubs expects an existing folder, got "/tmp/\u{1B}[2J\u{202E}x""#),
                "\(escaped.stderr.prefix(200))")
    }

    @Test func printSettingsSaysTheTokenIsSetAndNeverWhatItIs() async throws {
        for (arguments, environment) in [(["--admin-token", "s3cr3t-t0ken"], [:]), ([], ["STUBD_ADMIN_TOKEN": "s3cr3t-t0ken"])] {
            let (rows, result) = try await report(arguments, environment: environment)
            #expect(result.exitCode == 0 && !result.stdout.contains("s3cr3t-t0ken"), "\(result.stdout)")
            #expect(rows.first { $0.flag == "--admin-token" }?.value == "<hidden>")
        }
    }

    @Test func helpAndTheReadmeListEverySettingAsTheTableHasIt() async throws {
        let rows = try await report().rows
        let help = try await Subprocess.run(Repository.stubdBinary, ["serve", "--help"]).stdout
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "<!-- settings:")[1].components(separatedBy: "<!-- /settings -->")[0]
        let lines = table.components(separatedBy: "\n").filter { $0.hasPrefix("| `--") }
        #expect(lines.count == rows.count, "README lists \(lines.count) settings, the table has \(rows.count)")
        for row in rows {
            let flagCell = ([row.usage] + row.aliases).map { "`\($0)`" }.joined(separator: " ")
            let defaultCell = row.takes == "switch" ? "off" : row.defaultNote ?? row.value.map { "`\($0)`" } ?? "none"
            let expected = "| \(flagCell) | `\(row.variable)` | \(defaultCell) | \(row.help.replacingOccurrences(of: "|", with: "\\|")) |"
            #expect(lines.contains(expected), "README's settings table lacks or differs for \(row.flag): expected\n\(expected)")
            let squeezed = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(squeezed.contains("\(row.usage) \(row.help)") && squeezed.contains("env \(row.variable)"), "--help lacks \(row.flag)")
        }
    }
}
