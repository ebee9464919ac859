/// zsh: a `#compdef` function on `_arguments` and `_describe`.
extension ShellCompletion {
    static func zsh() -> String {
        let described = CommandTable.all.map { "        " + shQuoted("\($0.name):\(zshEscaped($0.summary))") }.joined(separator: "\n")
        let cases = CommandTable.all.map { command -> String in
            var specs = command.options.flatMap { option in
                option.names.map { name -> String in
                    let action = option.valueName.map { ":\(zshEscaped($0)):\(option.takesPath ? "_files" : " ")" } ?? ""
                    return shQuoted("\(name)[\(zshEscaped(shortHelp(option.help)))]\(action)")
                }
            }
            if !command.words.isEmpty {
                specs.append(shQuoted("1:\(command.name):(\(command.words.joined(separator: " ")))"))
            } else if command.takesFiles {
                specs.append(shQuoted("*:file:_files"))
            }
            return "        \(command.name)) _arguments -s \\\n            " + specs.joined(separator: " \\\n            ") + " ;;"
        }.joined(separator: "\n")
        return """
        #compdef stubd
        \(header(.zsh))
        # Installed as _stubd in a folder on $fpath (/usr/share/zsh/vendor-completions on Debian).
        _stubd() {
            local -a commands
            commands=(
        \(described)
            )
            if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
                _describe -t commands 'stubd command' commands
                return
            fi
            local command=serve
            # The first word names the command unless it is an option: `stubd --port 1` serves.
            if [[ $words[2] != -* ]]; then
                command=$words[2]
                shift words
                (( CURRENT-- ))
            fi
            case $command in
        \(cases)
            esac
        }
        _stubd "$@"

        """
    }

    /// Text for inside `_arguments`' brackets and colons: those characters escaped.
    static func zshEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "[]:\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
