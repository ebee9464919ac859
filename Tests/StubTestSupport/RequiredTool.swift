import Foundation

/// Something a test needs from outside the repository (a program, a Python package, a corpus
/// beside the checkout), with how to tell it is here and how to get it. Tests name what they need
/// with the `.requires(...)` trait (`RequiredTool+Trait.swift`): on a developer's machine a test
/// whose tool is missing says it skipped and how to install it; under `CI=true` it fails instead,
/// so that a failed install in `.ci/run` cannot turn whole suites into green skips.
package enum RequiredTool: String, CaseIterable, Sendable {
    /// A real store for the fleet suites: Debian's `redis-server`, or `valkey-server`.
    case redisServer = "redis-server"
    /// The load balancer in front of the fleet, and the checker of deploy/haproxy.
    case haproxy
    /// Chromium's WebDriver, which Selenium drives.
    case chromedriver
    /// Firefox, driven over its own WebDriver BiDi.
    case firefox
    /// Python's Selenium.
    case selenium
    /// Python's `websockets`, the strict WebSocket client (its `sync.client`).
    case websockets
    /// Python's `wsproto`, a second, sans-IO WebSocket client.
    case wsproto
    /// Python's `gql` with `requests`, a real GraphQL client.
    case gql
    /// Python's `graphql-core`, the reference validator (`gql` brings it).
    case graphqlCore = "graphql-core"
    /// Python's `pact-python`, the Pact verifier.
    case pactPython = "pact-python"
    /// `kubernetes-validate` (PyPI), the manifests' checker against the API's schemas.
    case kubernetesValidate = "kubernetes-validate"
    /// Python's `yaml` module (PyYAML; `kubernetes-validate` brings it).
    case pyyaml
    /// zsh, which loads `stubd completions zsh`.
    case zsh
    /// fish, which answers `stubd completions fish` with real completions (`complete -C`).
    case fish
    /// nghttp and h2load, HTTP/2's reference client and load generator.
    case nghttp
    /// Python's httpx with its HTTP/2 extra, which brings the h2 library.
    case httpx
    /// groff, which renders `stubd manpage` as man(1) does and reports what it cannot read.
    case groff
    /// The JSON Schema Test Suite in ../shared/corpus, beside the checkout.
    case schemaTestSuite = "json-schema-test-suite"

    /// How a developer gets it; `.ci/run` runs the same command.
    package var install: String {
        switch self {
        case .redisServer: "apt-get install redis-server (or valkey-server)"
        case .haproxy: "apt-get install haproxy"
        case .chromedriver: "apt-get install chromium chromium-driver"
        case .firefox: "apt-get install firefox-esr"
        case .selenium: "python3 -m pip install 'selenium>=4.20,<5'"
        case .websockets: "python3 -m pip install 'websockets>=12,<18'"
        case .wsproto: "python3 -m pip install 'wsproto>=1.2,<2'"
        case .gql: "python3 -m pip install 'gql[requests]>=3.5,<5'"
        case .graphqlCore: "python3 -m pip install 'gql[requests]>=3.5,<5' (which brings graphql-core)"
        case .pactPython: "python3 -m pip install 'pact-python>=3,<5'"
        case .kubernetesValidate: "python3 -m pip install 'kubernetes-validate>=1.28,<2'"
        case .pyyaml: "python3 -m pip install 'kubernetes-validate>=1.28,<2' (which brings PyYAML)"
        case .zsh: "apt-get install zsh"
        case .fish: "apt-get install fish"
        case .groff: "apt-get install groff-base"
        case .nghttp: "apt-get install nghttp2-client (brew install nghttp2)"
        case .httpx: "python3 -m pip install 'httpx[http2]>=0.27,<1'"
        case .schemaTestSuite: "put the JSON Schema Test Suite at \(RequiredTool.schemaTestSuiteTests) (see bench/conformance.py)"
        }
    }

    /// Whether a CI run without it fails. Material beside the checkout is optional where there
    /// is no ../shared at all (a supported layout: `make test` passes without it); where
    /// ../shared is there, a missing part of it is a broken set-up and fails like a tool.
    package var failsUnderCI: Bool {
        switch self {
        case .schemaTestSuite: FileManager.default.fileExists(atPath: Repository.root.deletingLastPathComponent().appendingPathComponent("shared").path)
        default: true
        }
    }

    /// What `.ci/run` does to have it, for the message of a CI run that lacks it.
    package var inCI: String {
        switch self {
        case .schemaTestSuite: ".ci/run expects it beside the checkout, at \(RequiredTool.schemaTestSuiteTests)"
        default: ".ci/run installs it: \(install)"
        }
    }

    /// Whether it is here; each is probed once per process, when a test first asks.
    package var isAvailable: Bool {
        switch self {
        case .redisServer: Probe.redisServer
        case .haproxy: Probe.haproxy
        case .chromedriver: Probe.chromedriver
        case .firefox: Probe.firefox
        case .selenium: Probe.selenium
        case .websockets: Probe.websockets
        case .wsproto: Probe.wsproto
        case .gql: Probe.gql
        case .graphqlCore: Probe.graphqlCore
        case .pactPython: Probe.pactPython
        case .kubernetesValidate: Probe.kubernetesValidate
        case .pyyaml: Probe.pyyaml
        case .zsh, .fish, .groff, .nghttp: executable != nil
        case .httpx: Probe.httpx
        case .schemaTestSuite: Probe.schemaTestSuite
        }
    }

    /// The program's path, for the tools that are programs (nil for the others and when missing).
    package var executable: String? {
        switch self {
        case .redisServer: Probe.storeServer
        case .haproxy: Probe.haproxy ? "/usr/sbin/haproxy" : nil
        case .chromedriver: RequiredTool.onPath("chromedriver")
        case .firefox: RequiredTool.onPath("firefox-esr") ?? RequiredTool.onPath("firefox")
        case .kubernetesValidate: RequiredTool.onPath("kubernetes-validate")
        case .zsh, .fish, .groff, .nghttp: RequiredTool.onPath(rawValue)
        default: nil
        }
    }

    /// The JSON Schema Test Suite's `tests` folder: ../shared/corpus beside the checkout.
    package static var schemaTestSuiteTests: String {
        Repository.root.deletingLastPathComponent().appendingPathComponent("shared/corpus/json-schema-test-suite/tests").path
    }

    /// The first executable `name` on PATH, or in /usr/sbin and /usr/local/bin.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/bin"])
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `python3 -c code` exits 0.
    static func python(_ code: String) -> Bool {
        (try? Subprocess.runBlocking("/usr/bin/env", ["python3", "-c", code]).exitCode) == 0
    }
}

/// The answers, each computed once (a static `let` is initialised lazily and only once).
private enum Probe {
    static let storeServer: String? = RequiredTool.onPath("valkey-server") ?? RequiredTool.onPath("redis-server")
    static let redisServer = storeServer != nil
    // The tests start /usr/sbin/haproxy, where Debian puts it.
    static let haproxy = FileManager.default.isExecutableFile(atPath: "/usr/sbin/haproxy")
    static let chromedriver = RequiredTool.chromedriver.executable != nil
    static let firefox = RequiredTool.firefox.executable != nil
    static let selenium = RequiredTool.python("import selenium")
    static let websockets = RequiredTool.python("import websockets.sync.client")
    static let wsproto = RequiredTool.python("import wsproto")
    static let gql = RequiredTool.python("import gql, requests")
    static let graphqlCore = RequiredTool.python("import graphql")
    static let pactPython = RequiredTool.python("import pact; from pact import Verifier")
    static let kubernetesValidate = RequiredTool.kubernetesValidate.executable != nil
    static let pyyaml = RequiredTool.python("import yaml")
    static let httpx = RequiredTool.python("import httpx, h2")
    static let schemaTestSuite = FileManager.default.fileExists(atPath: RequiredTool.schemaTestSuiteTests)
}
