import Foundation
import StubServer
import StubTestSupport
import Testing

extension DashboardBrowserTests {
    /// A WebSocket conversation watched and steered from the page: listed, its messages shown both
    /// ways as they happen, a message typed in the box reaches the client, and Close ends it.
    @Test(.requires(.websockets))
    func aConversationIsWatchedLiveAndSteeredFromThePage() async throws {
        let folder = try shots()
        try await withServer(configure: { $0.log = .off }) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/dashboard_conversations.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, origin(server), folder])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(out["listed"] as? Bool == true)
            #expect(out["welcomeShown"] as? Bool == true)
            #expect(out["bothWaysShown"] as? Bool == true, "the client's message and the answer show without a reload")
            #expect(out["clientGotPush"] as? Bool == true, "the message typed in the page reached the client")
            #expect(out["closeCode"] as? Int == 1000)
            #expect(out["endedShown"] as? Bool == true)
            #expect((out["browserErrors"] as? [String])?.isEmpty == true, "\(out["browserErrors"] ?? "")")
        }
        #expect(FileManager.default.fileExists(atPath: "\(folder)/dashboard-conversations.png"))
    }
}
