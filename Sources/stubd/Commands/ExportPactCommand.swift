#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd export-pact --consumer NAME --provider NAME`: a running stubd's journal as a Pact
/// contract on standard output (`GET /__stubd/journal/pact`).
enum ExportPactCommand {
    static let usage = """
    OVERVIEW: Write a running stubd's journal as a Pact contract (specification 3.0.0).

    USAGE: stubd export-pact --consumer NAME --provider NAME [OPTIONS] > pact.json

    OPTIONS:
      --consumer NAME         The consumer's name (your app)
      --provider NAME         The provider's name (the API)
      --url URL               The stubd to ask (default: http://127.0.0.1:8080)
      --session ID            Only this session's requests
      --since ID              Only requests after this journal entry id
      --admin-token TOKEN     The daemon's admin token, when it has one
      -h, --help              Show this help

    Each distinct exchange a stub answered becomes an interaction; the provider state names the
    route and variant, which POST /__stubd/pact/state sets up for a verifier.
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        var url = "http://127.0.0.1:8080", query: [(String, String)] = [], token: String?, session: String?
        var scanner = ArgumentScanner(arguments)
        do throws(UsageError) {
            while let option = scanner.nextOption() {
                switch option {
                case "--consumer": query.append(("consumer", try scanner.value(for: option)))
                case "--provider": query.append(("provider", try scanner.value(for: option)))
                case "--since": query.append(("since", try scanner.value(for: option)))
                case "--session": session = try scanner.value(for: option)
                case "--url": url = try scanner.value(for: option)
                case "--admin-token": token = try scanner.value(for: option)
                default: throw ArgumentScanner.unknown(option)
                }
            }
            guard query.contains(where: { $0.0 == "consumer" }), query.contains(where: { $0.0 == "provider" }) else {
                throw UsageError(message: "expected --consumer NAME and --provider NAME")
            }
            if !scanner.positionals.isEmpty { throw UsageError(message: "unexpected argument \"\(scanner.positionals[0])\"") }
        } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let path = "/__stubd/journal/pact?" + query.map { "\($0.0)=\($0.1.percentEncodedComponent())" }.joined(separator: "&")
        guard let target = ProbeTarget(url.hasSuffix("/") ? String(url.dropLast()) + path : url + path) else {
            StubdCommand.fail("expected --url like http://127.0.0.1:8080", usage: usage)
            return 2
        }
        var headers: [String] = []
        if let session { headers.append("X-Stub-Session: \(session)") }
        if let token { headers.append("Authorization: Bearer \(token)") }
        guard let (status, body) = target.fetch(timeoutSeconds: 10, headers: headers) else {
            StubdCommand.printError("stubd: no answer from \(url); is stubd serving there?")
            return 1
        }
        guard status == 200 else {
            StubdCommand.printError("stubd: \(url) answered \(status): \(String(decoding: body.prefix(500), as: UTF8.self))")
            return 1
        }
        StandardStreams.write(String(decoding: body, as: UTF8.self), to: STDOUT_FILENO)
        return 0
    }
}
