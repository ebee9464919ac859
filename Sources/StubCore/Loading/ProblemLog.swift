/// Collects problems while a directory loads, so one run reports all of them.
final class ProblemLog {
    private(set) var problems: [StubProblem] = []

    func add(_ file: String, _ path: String, _ message: String) {
        problems.append(StubProblem(file: file, location: .path(path), message: message))
    }

    func addFile(_ file: String, _ message: String) {
        problems.append(StubProblem(file: file, location: .file, message: message))
    }

    func add(_ problem: StubProblem) {
        problems.append(problem)
    }
}
