import StubCore

// Thin entry point: every command lives in Commands/.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(StubdCommand.run(arguments))
