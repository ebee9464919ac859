/// One route folder to load. Large trees load their folders in parallel, each job with its own
/// problem log; routes and problems are then merged in directory order, so the result and the
/// order of the messages do not depend on timing.
struct RouteJob {
    let folder: String
    let service: String?
    let defaults: ServiceDefaults
    /// The folder's entries, from the walk.
    let entries: [StubFiles.Entry]

    /// Below this many folders, threads cost more than they save.
    static let parallelAbove = 64

    /// Loads every job; problems go to `log`, in job order.
    static func run(_ jobs: [RouteJob], root: String, log: ProblemLog) -> [Route] {
        let results = jobs.parallelMap(above: parallelAbove) { $0.load(root: root) }
        var routes: [Route] = []
        for outcome in results {
            for problem in outcome.problems { log.add(problem) }
            routes += outcome.routes
        }
        return routes
    }

    struct Outcome {
        var routes: [Route] = []
        var problems: [StubProblem] = []
    }

    func load(root: String) -> Outcome {
        let log = ProblemLog()
        let list = entries
        guard list.contains(where: { $0.name == "route.json" && !$0.isDirectory }) else {
            log.addFile("\(folder)/route.json", "missing; every folder inside a service is a route and needs a route.json")
            return Outcome(problems: log.problems)
        }
        let routes = RouteLoader(root: root, folder: folder, service: service, defaults: defaults, log: log, entries: list).load()
        return Outcome(routes: routes, problems: log.problems)
    }
}
