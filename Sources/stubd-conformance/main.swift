// Conformance runner behind `make conformance`: the JSON Schema Test Suite through stubd's validator.
import StubCore
import StubSchema

ConformanceMain.run(Array(CommandLine.arguments.dropFirst()))
