import Foundation
import StubTestSupport
import Testing

/// `stubd completions` and `stubd manpage` are made from the command and settings tables: each
/// test takes the lists from the binary's own `help` and `serve --print-settings` and checks
/// that the script or page has all of them, by running the shell or roff that reads it.
@Suite(.timeLimit(.minutes(3))) struct ShellIntegrationTests {
    func stubd(_ arguments: [String], environment: [String: String]? = nil) async throws -> Curl.Result {
        try await Subprocess.run(Repository.stubdBinary, arguments, environment: environment)
    }

    /// The commands `stubd help` lists, first word of each line under COMMANDS.
    func commands() async throws -> [String] {
        let help = try await stubd(["help"]).stdout
        let section = try #require(help.split(separator: "COMMANDS:\n").dropFirst().first).split(separator: "\n\n").first ?? ""
        let names = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 13, "\(help)")
        return names
    }

    /// The flags of `serve`'s settings table, as `--print-settings` reports them.
    func settingFlags() async throws -> [String] {
        let report = try await stubd(["serve", "--print-settings"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let flags = try #require(json["settings"] as? [[String: Any]]).compactMap { $0["flag"] as? String }
        #expect(flags.count >= 30)
        return flags
    }

    /// The script for `shell` in a file, for the shell to source.
    func script(_ shell: String) async throws -> URL {
        let result = try await stubd(["completions", shell])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-completion-\(UUID().uuidString).\(shell)")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What bash's completion offers for the words typed so far (the last one being completed).
    func bashCandidates(_ typed: [String], script: URL) async throws -> [String] {
        let words = typed.map { "'\($0)'" }.joined(separator: " ")
        let program = "source '\(script.path)'; COMP_WORDS=(\(words)); COMP_CWORD=\(typed.count - 1); _stubd; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try await Subprocess.run("/bin/bash", ["--norc", "-c", program])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesEverySettingOfServeAndEveryCommand() async throws {
        let file = try await script("bash")
        defer { try? FileManager.default.removeItem(at: file) }
        let flags = try await settingFlags()
        let serve = try await bashCandidates(["stubd", "serve", "--"], script: file)
        #expect(flags.allSatisfy(serve.contains), "missing from `stubd serve --<TAB>`: \(flags.filter { !serve.contains($0) })")
        #expect(serve.contains("--print-settings"))
        // No command is serve too.
        #expect(try await bashCandidates(["stubd", "--po"], script: file) == ["--port"])
        let commands = try await commands()
        #expect(try await bashCandidates(["stubd", ""], script: file).sorted() == commands.sorted())
        #expect(try await bashCandidates(["stubd", "check", "--op"], script: file) == ["--openapi"])
        #expect(try await bashCandidates(["stubd", "tls", ""], script: file) == ["init"])
        #expect(try await bashCandidates(["stubd", "completions", ""], script: file) == ["bash", "zsh", "fish"])
        // After an option that takes a port, nothing; after one that takes a folder, file names.
        #expect(try await bashCandidates(["stubd", "serve", "--port", ""], script: file).isEmpty)
        let folders = try await bashCandidates(["stubd", "serve", "--stubs", "/"], script: file)
        #expect(folders.contains("/tmp"), "\(folders)")
    }

    @Test(.requires(.fish)) func fishCompletesEverySettingOfServeAndEveryCommand() async throws {
        let file = try await script("fish")
        defer { try? FileManager.default.removeItem(at: file) }
        func candidates(_ line: String) async throws -> [String] {
            let result = try await Subprocess.run(try #require(RequiredTool.fish.executable), ["--no-config", "-c", "source '\(file.path)'; complete -C '\(line)'"])
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        }
        let flags = try await settingFlags()
        let serve = try await candidates("stubd serve --")
        #expect(flags.allSatisfy(serve.contains), "missing from fish's `stubd serve --`: \(flags.filter { !serve.contains($0) })")
        #expect(try await candidates("stubd ").sorted() == (try await commands()).sorted())
        #expect(try await candidates("stubd tls ") == ["init"])
    }

    @Test(.requires(.zsh)) func zshLoadsTheScriptWithEverySettingAndCommand() async throws {
        let file = try await script("zsh")
        defer { try? FileManager.default.removeItem(at: file) }
        let zsh = try #require(RequiredTool.zsh.executable)
        let syntax = try await Subprocess.run(zsh, ["-n", file.path])
        #expect(syntax.exitCode == 0 && syntax.stderr.isEmpty, "\(syntax.stderr)")
        // Loaded by compinit as it would be from $fpath: the function is defined under its name.
        let folder = file.deletingLastPathComponent().appendingPathComponent("zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("_stubd"))
        let loaded = try await Subprocess.run(zsh, ["-f", "-c", "fpath=('\(folder.path)' $fpath); autoload -Uz compinit; compinit -u -D; print -r -- $_comps[stubd]"])
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_stubd", "\(loaded.stdout) \(loaded.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        for flag in try await settingFlags() { #expect(text.contains("'\(flag)["), "\(flag) is not in the zsh script") }
        for command in try await commands() { #expect(text.contains("'\(command):"), "\(command) is not in the zsh script") }
        // File names are offered where a command takes files, not to probe (a URL) or manpage.
        func branch(_ command: String) -> Substring {
            guard let start = text.range(of: "        \(command)) _arguments") else { return "" }
            return text[start.upperBound...].prefix { $0 != ";" }
        }
        #expect(branch("check").contains("_files") && !branch("probe").contains("_files") && !branch("manpage").contains("_files"))
    }

    @Test func aShellStubdHasNoScriptForFailsWithUsage() async throws {
        let result = try await stubd(["completions", "tcsh"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: expected one shell, bash, zsh or fish; got \"tcsh\""), "\(result.stderr)")
    }

    @Test func theManPageListsEveryCommandSettingAndVariable() async throws {
        let page = try await stubd(["manpage", "--date", "2026-01-31"])
        #expect(page.exitCode == 0, "\(page.stderr)")
        #expect(page.stdout.contains(".TH STUBD 1 \"2026\\-01\\-31\""))
        for command in try await commands() {
            #expect(page.stdout.contains(".SS \"stubd \(command.replacing("-", with: "\\-"))\""), "the man page has no section for \(command)")
        }
        for flag in try await settingFlags() {
            let variable = "STUBD_" + flag.dropFirst(2).uppercased().replacing("-", with: "_")
            #expect(page.stdout.contains("\\fB\(flag.replacing("-", with: "\\-"))\\fR"), "the man page does not list \(flag)")
            #expect(page.stdout.contains("\\fB\(variable)\\fR"), "the man page does not list \(variable)")
        }
        let dated = try await stubd(["manpage"], environment: ["SOURCE_DATE_EPOCH": "1767225600", "PATH": "/usr/bin:/bin"])
        #expect(dated.stdout.contains(".TH STUBD 1 \"2026\\-01\\-01\""))
        let bad = try await stubd(["manpage", "--date", "yesterday"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("--date: expected a date like 2026-01-31"))
    }

    @Test(.requires(.groff)) func theManPageRendersWithoutWarnings() async throws {
        let page = try await stubd(["manpage"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-\(UUID().uuidString).1")
        try page.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let rendered = try await Subprocess.run(try #require(RequiredTool.groff.executable), ["-man", "-Tutf8", "-ww", file.path])
        #expect(rendered.exitCode == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        #expect(rendered.stdout.contains("import-openapi") && rendered.stdout.contains("STUBD_PORT"))
    }
}
