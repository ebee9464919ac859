import Foundation
import StubServer
import StubTestSupport
import Testing

extension DashboardBrowserTests {
    /// What the stubs remember, seen and changed from the page: the shipped app service's
    /// `password` and the `app/todos` collection; in a steered session a value saved from the page
    /// is what `/login` checks, a collection is replaced and reset, a request's change shows
    /// without a reload, and "Reset all" puts the seeds back.
    @Test func theStateViewShowsAndEditsWhatTheStubsRemember() async throws {
        let folder = try shots()
        try await withServer(configure: { $0.log = .off }) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/dashboard_state.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, origin(server), folder])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(out["passwordShown"] as? Bool == true, "the app service's password key is shown")
            #expect(out["todosListed"] as? Bool == true && out["todosCount"] as? String == "5", "\(out["todosCount"] ?? "")")
            #expect(out["scopeShown"] as? Bool == true)
            #expect(out["savedInSession"] as? Bool == true && out["globalUntouched"] as? Bool == true)
            #expect(out["objectsShown"] as? Int == 5)
            #expect(out["collectionSavedCount"] as? String == "1" && out["appSeesSaved"] as? Bool == true)
            #expect(out["refusalShown"] as? Bool == true, "the server's refusal is shown with where it is")
            #expect(out["collectionResetCount"] as? String == "5")
            #expect(out["changePassStatus"] as? Int == 200 && out["requestChangeShown"] as? Bool == true)
            #expect(out["resetAll"] as? Bool == true)
            #expect((out["browserErrors"] as? [String])?.isEmpty == true, "\(out["browserErrors"] ?? "")")
        }
        #expect(FileManager.default.fileExists(atPath: "\(folder)/dashboard-state.png"))
    }
}
