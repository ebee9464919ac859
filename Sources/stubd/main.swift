import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Thin entry point: every command lives in Commands/.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(StubdCommand.run(arguments))
