import StubServer

/// The manual page stubd(1) in roff, made from the command table and the settings table: each
/// command with its help text, each setting of `serve` with its variable and default.
enum ManPage {
    /// The whole page; `date` goes in its header (packages pass a fixed one for reproducible builds).
    static func roff(date: String) -> String {
        var out: [String] = [
            #".\" stubd(1), made by `stubd manpage`; do not edit."#,
            ".TH STUBD 1 \(quoted(date)) \(quoted("stubd \(StubdVersion.current)")) \"User Commands\"",
            ".SH NAME",
            "stubd \\- \(escaped(String(StubdCommand.overview.dropFirst("stubd ".count).dropLast())))",
            ".SH SYNOPSIS",
        ]
        for command in CommandTable.all {
            let name = command.name == "serve" ? "[\\fBserve\\fR]" : "\\fB\(escaped(command.name))\\fR"
            out += [".br", "\\fBstubd\\fR \(name) \(escaped(command.synopsis))"]
        }
        out += [
            ".br", "\\fBstubd\\fR \\fB\\-\\-version\\fR",
            ".SH DESCRIPTION",
            escaped("stubd serves stub directories (a folder per route, a body file per response) over a real HTTP socket, so that an API client's headers, status handling, decoding, timeouts, retries and cancellation are tested too. Delays, faults, variants and sequences are picked per request by header or set through the admin API under /__stubd/; the dashboard is at /__stubd/ui."),
            ".SH COMMANDS",
        ]
        for command in CommandTable.all {
            out += [".SS \(quoted("stubd \(command.name)"))", escaped(command.summary) + "."]
            if command.name == "serve" {
                out.append(escaped("Its settings are listed under SERVE OPTIONS; each also comes from its STUBD_* variable, a flag beating its variable."))
            } else {
                out += [".PP", ".nf", ".RS 4"] + command.usage().split(separator: "\n", omittingEmptySubsequences: false).map { escapedLine(String($0)) } + [".RE", ".fi"]
            }
        }
        out.append(".SH SERVE OPTIONS")
        for setting in ServeSettings.all {
            let value = setting.valueName.map { " \\fI\(escaped($0))\\fR" } ?? ""
            out += [".TP", "\\fB\(escaped(setting.flag))\\fR\(value)", escaped(setting.fullHelp)]
        }
        out += [".TP", "\\fB\\-\\-print\\-settings\\fR", "Print each setting's value and where it came from (JSON), then exit."]
        out.append(".SH ENVIRONMENT")
        for setting in ServeSettings.all {
            out += [".TP", "\\fB\(escaped(setting.variable))\\fR", escaped("The value of \(setting.flag)\(setting.valueName == nil ? " (1/0, true/false, yes/no or on/off)" : "").")]
        }
        out += [
            ".SH FILES",
            ".TP", "\\fB~/.stubd/tls\\fR", escaped("The certificate authority and server certificate stubd tls init makes and serve --tls reads."),
            ".TP", "\\fB/usr/share/doc/stubd/examples/Stubs\\fR", escaped("Six example APIs as a stub directory (where the Debian package puts them)."),
            ".SH EXIT STATUS",
            escaped("0 on success and after SIGINT or SIGTERM; 1 when a stub directory, a document or a request fails; 2 for a bad command line."),
            ".SH EXAMPLES",
            ".nf", ".RS 4",
            escapedLine("stubd routes /usr/share/doc/stubd/examples/Stubs"),
            escapedLine("stubd serve --stubs /usr/share/doc/stubd/examples/Stubs --port 8080 &"),
            escapedLine("curl -s localhost:8080/api/v1/users/1"),
            escapedLine("curl -s -H 'X-Stub-Variant: 500' localhost:8080/api/v1/users"),
            ".RE", ".fi",
            ".SH SEE ALSO",
            escaped("curl(1); the README and docs/ in stubd's source (stub format, captures, contracts, TLS, the fleet)."),
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// Text for a roff line: backslashes and dashes escaped, and a leading dot or quote kept
    /// from being read as a request.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A line of preformatted text: escaped, and an empty line kept as one.
    static func escapedLine(_ line: String) -> String {
        line.isEmpty ? "" : escaped(line)
    }

    /// A quoted argument of a roff request.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
    }
}
