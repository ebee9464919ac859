#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubServer
import StubTLS

/// `stubd tls init`: make (once) the local certificate authority and (each time) a server
/// certificate it signs, then print how to trust the authority.
enum TLSCommand {
    static let usage = """
    OVERVIEW: Make a local certificate authority and a server certificate for `stubd serve --tls`.

    USAGE: stubd tls init [--tls-dir DIR] [--host NAME ...]

    Running it again keeps the authority (clients stay trusting it) and renews the server
    certificate, for the default names and every --host given.

    OPTIONS:
      --tls-dir DIR           Where the files go, the folder `serve --tls-dir` reads (default
                              ~/.stubd/tls; env STUBD_TLS_DIR; also --dir)
      --host NAME             Another host name or IP address for the server certificate
                              (repeatable); localhost, 127.0.0.1, ::1 and this machine's name
                              are always in it
      -h, --help              Show this help
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") || arguments.isEmpty { print(usage); return arguments.isEmpty ? 2 : 0 }
        guard arguments.first == "init" else {
            StubdCommand.fail("unknown tls command \"\(arguments[0])\"", usage: usage)
            return 2
        }
        var directory = ProcessInfo.processInfo.environment["STUBD_TLS_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? TLSDirectory.defaultPath
        var hosts: [String] = []
        var scanner = ArgumentScanner(Array(arguments.dropFirst()))
        do throws(UsageError) {
            while let option = scanner.nextOption() {
                switch option {
                case "--tls-dir", "--dir": directory = try scanner.value(for: option)
                case "--host": hosts.append(try scanner.value(for: option))
                default: throw ArgumentScanner.unknown(option)
                }
            }
            if let extra = scanner.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        let folder = TLSDirectory(path: directory)
        let outcome: TLSDirectory.Outcome
        do {
            outcome = try folder.initialize(hosts: hosts)
        } catch {
            StubdCommand.printError("stubd: \(error)")
            return 1
        }
        print(outcome.createdAuthority ? "Created the certificate authority \(outcome.authorityName)" : "Kept the certificate authority \(outcome.authorityName)")
        print("  \(folder.authorityCertificate)  (its key: \(folder.authorityKey), readable by you only)")
        print("Issued the server certificate for \(outcome.names.joined(separator: ", ")), valid until \(ISO8601.format(outcome.notAfter).prefix(10))")
        print("  \(folder.serverCertificate)  (its key: \(folder.serverKey))")
        print("Wrote the device profile \(folder.profile)\n")
        print(TrustInstructions.text(for: folder, port: 8443), terminator: "")
        return 0
    }
}
