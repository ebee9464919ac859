import Foundation
import Testing
import StubTestSupport

/// The fleet's deployment files: the Kubernetes manifests against the API's schemas
/// (`kubernetes-validate`, PyPI), the HAProxy configuration with HAProxy itself, and the compose
/// file's replicas, store and balancer named consistently.
@Suite(.timeLimit(.minutes(3))) struct DeployTests {
    static let deploy = Repository.root.appendingPathComponent("deploy")

    @Test(.requires(.kubernetesValidate))
    func theKubernetesManifestsValidateStrictly() async throws {
        let folder = DeployTests.deploy.appendingPathComponent("kubernetes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["store-example.yaml", "stubd.yaml", "stubs-configmap.yaml"])
        let run = try await Subprocess.run(try #require(RequiredTool.kubernetesValidate.executable), ["--strict"] + files.map { folder.appendingPathComponent($0).path })
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("deployment/stubd"))
    }

    @Test func theDeploymentRunsThreeHardenedReplicasProbedOnHealth() throws {
        let text = try String(contentsOf: DeployTests.deploy.appendingPathComponent("kubernetes/stubd.yaml"), encoding: .utf8)
        for needed in ["replicas: 3", "runAsNonRoot: true", "readOnlyRootFilesystem: true", "path: /__stubd/health", "readinessProbe:",
                       "livenessProbe:", "STUBD_STATE: \"redis://valkey:6379\"", "fieldPath: metadata.name", "limits:"] {
            #expect(text.contains(needed), "stubd.yaml lacks \(needed)")
        }
    }

    @Test(.requires(.haproxy))
    func theBalancersConfigurationIsValid() async throws {
        let config = DeployTests.deploy.appendingPathComponent("haproxy/haproxy.cfg").path
        let check = try await Subprocess.run("/usr/sbin/haproxy", ["-c", "-f", config])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Python's yaml module (PyYAML, which kubernetes-validate brings) reads the compose file.
    @Test(.requires(.pyyaml))
    func theComposeFileRunsThreeReplicasOnTheStoreBehindTheBalancer() async throws {
        let script = """
        import json, sys, yaml
        doc = yaml.safe_load(open(sys.argv[1]))
        out = {}
        for name, service in doc["services"].items():
            out[name] = {"env": service.get("environment", {}), "build": service.get("build"), "ports": service.get("ports", []),
                         "depends": service.get("depends_on", []), "read_only": service.get("read_only", False)}
        print(json.dumps(out))
        """
        let run = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script, DeployTests.deploy.appendingPathComponent("compose.yaml").path])
        try #require(run.exitCode == 0, "\(run.stderr)")
        let services = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [String: Any]])
        #expect(Set(services.keys) == ["store", "stubd-1", "stubd-2", "stubd-3", "balancer"])
        for name in ["stubd-1", "stubd-2", "stubd-3"] {
            let env = services[name]?["env"] as? [String: String]
            #expect(env?["STUBD_STATE"] == "redis://store:6379" && env?["STUBD_REPLICA"] == name)
            #expect(services[name]?["read_only"] as? Bool == true)
            #expect((services[name]?["build"] as? [String: Any])?["dockerfile"] as? String == "Dockerfile")
        }
        #expect(services["balancer"]?["ports"] as? [String] == ["8080:8080"])
        let haproxy = try String(contentsOf: DeployTests.deploy.appendingPathComponent("haproxy/haproxy.cfg"), encoding: .utf8)
        for name in ["stubd-1", "stubd-2", "stubd-3"] { #expect(haproxy.contains("server \(name) \(name):8080")) }
    }
}
