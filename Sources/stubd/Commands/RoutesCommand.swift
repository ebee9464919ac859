import StubCore
import StubServer

/// `stubd routes [DIR]`: print the routes of a stub directory as a table.
enum RoutesCommand {
    static let usage = StubDirectoryArgument.usage(
        command: "routes", overview: "Print the routes of a stub directory: service, route, method, full path, variants, default.")

    static func run(_ arguments: [String]) -> Int32 {
        DirectoryCommandLine.run(arguments, usage: usage) { list($0.directory) }
    }

    private static func list(_ directory: String) -> Int32 {
        switch StubLoader.load(directory: directory) {
        case .success(let catalog):
            print(table(catalog), terminator: "")
            return 0
        case .failure(let failure):
            StubdCommand.printError(failure.description)
            StubdCommand.printError("\(directory): \(failure.problems.count) problem(s); run `stubd check` for details")
            return 1
        }
    }

    static func table(_ catalog: StubCatalog) -> String {
        var rows = [["SERVICE", "ROUTE", "METHOD", "PATH", "VARIANTS", "DEFAULT"]]
        for route in catalog.routes {
            // An operation route is listed by its kind, and its operation after its endpoint
            // (`QUERY /graphql#GetUser`), a WebSocket route as `WEBSOCKET`: one word per cell,
            // as scripts split them.
            let method = route.operationKind?.uppercased() ?? (route.webSocket != nil ? "WEBSOCKET" : route.method)
            let path = route.operation.map { "\(route.fullPath)#\($0)" } ?? route.fullPath
            rows.append([route.service ?? "-", route.name, method, path,
                         route.variants.map(\.name).joined(separator: ","), route.defaultVariant.name])
        }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
