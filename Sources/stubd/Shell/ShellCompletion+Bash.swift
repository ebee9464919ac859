/// bash: a function for `complete -F`, which reads COMP_WORDS and COMP_CWORD and fills COMPREPLY.
extension ShellCompletion {
    static func bash() -> String {
        let commands = CommandTable.all.map(\.name).joined(separator: " ")
        let cases = CommandTable.all.map { command -> String in
            let options = command.options
            let paths = options.filter(\.takesPath).flatMap(\.names)
            let values = options.filter { $0.valueName != nil && !$0.takesPath }.flatMap(\.names)
            return """
                    \(command.name))
                        options=\(shQuoted(optionNames(command).joined(separator: " ")))
                        paths=\(shQuoted(paths.joined(separator: " ")))
                        values=\(shQuoted(values.joined(separator: " ")))
                        words=\(shQuoted(command.words.joined(separator: " "))) ;;
            """
        }.joined(separator: "\n")
        return """
        \(header(.bash))
        # Installed as /usr/share/bash-completion/completions/stubd (bash-completion loads it on first use).
        _stubd() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            local command=serve options paths values words
            COMPREPLY=()
            if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -W \(shQuoted(commands)) -- "$cur"))
                return 0
            fi
            # The first word names the command unless it is an option: `stubd --port 1` serves.
            [[ ${COMP_WORDS[1]} != -* ]] && command=${COMP_WORDS[1]}
            case $command in
        \(cases)
                *) return 0 ;;
            esac
            if [[ " $paths " == *" $prev "* ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                return 0
            fi
            # A value that is not a path: nothing to offer.
            [[ " $values " == *" $prev "* ]] && return 0
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            elif [[ -n $words ]] && ((COMP_CWORD == 2)); then
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
            else
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            return 0
        }
        complete -F _stubd stubd

        """
    }
}
