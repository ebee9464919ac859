// swift-tools-version:6.0
import PackageDescription

// pkg-config names of the libraries whose Debian files make a plain `swift build` warn there:
// Debian's libwslay-dev has no .pc at all ("you may be able to install libwslay"), and hiredis's
// .pc asks for -D_FILE_OFFSET_BITS=64, which SwiftPM refuses ("prohibited flag"). On Linux both
// headers are under /usr/include, where the compiler looks anyway, and the module maps link the
// libraries by name; Homebrew puts them under its own prefix, which only pkg-config knows.
#if os(Linux)
let wslayPkgConfig: String? = nil
let hiredisPkgConfig: String? = nil
#else
let wslayPkgConfig: String? = "libwslay"
let hiredisPkgConfig: String? = "hiredis"
#endif

let package = Package(
    name: "stubd",
    // macOS 14: atomics are StubSystem's AtomicWord, not Synchronization's (macOS 15); iOS 16 for StubdClient in a UI-test target.
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "stubd", targets: ["stubd"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        .library(name: "StubCore", targets: ["StubCore"]),
        .library(name: "StubTLS", targets: ["StubTLS"]),
        .library(name: "StubTesting", targets: ["StubTesting"]),
        .library(name: "StubdClient", targets: ["StubdClient"]),
        .library(name: "StubFleet", targets: ["StubFleet"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: hiredisPkgConfig,
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),
        // WebSocket framing (RFC 6455) for a server doing its own I/O; the library is linked by name
        // in the module map, since Debian ships no pkg-config file for it.
        .systemLibrary(
            name: "CWslay",
            pkgConfig: wslayPkgConfig,
            providers: [.apt(["libwslay-dev"]), .brew(["wslay"])]
        ),
        // HTTP/2 framing, HPACK and flow control (RFC 9113) for a server doing its own I/O.
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["libnghttp2"])]
        ),
        .systemLibrary(name: "CSystem"),
        .target(name: "StubSystem", dependencies: ["CSystem"]),
        .target(name: "StubCore", dependencies: ["StubSystem"]),
        .target(name: "StubTLS", dependencies: ["StubCore", "StubSystem", "CGnuTLS"]),
        .target(name: "StubCapture", dependencies: ["StubCore", "StubSystem"]),
        .target(name: "StubProxy", dependencies: ["StubCore", "StubSystem", "StubCapture", "CGnuTLS"]),
        .target(name: "StubSchema", dependencies: ["StubCore", "StubSystem"]),
        .target(name: "StubGraphQL", dependencies: ["StubCore"]),
        .target(name: "StubContract", dependencies: ["StubCore", "StubSystem", "StubSchema", "StubCapture", "CYAML"]),
        // The dashboard's HTML, CSS and JavaScript, compiled into the binary: nothing to install beside it.
        .target(name: "StubDashboard", dependencies: ["StubCore"],
                resources: ["index.html", "app.css", "core.js", "routes.js", "traffic.js", "panels.js", "conversations.js", "state.js", "app.js", "icon.svg"]
                    .map { .embedInCode("Files/\($0)") }),
        // What any HTTP transport needs beside the bytes: framing decisions, admission, suspension
        // bookkeeping, deferred jobs, socket faults. No libmicrohttpd here.
        .target(name: "StubTransport", dependencies: ["StubCore", "StubSystem", "CSystem"]),
        // WebSocket conversations on upgraded sockets: wslay's framing, one polling thread for all.
        .target(name: "StubWebSocket", dependencies: ["StubCore", "StubSystem", "CWslay", "CSystem"]),
        // HTTP/2 on the HTTPS port: the front that reads each ClientHello's ALPN, GnuTLS and
        // nghttp2 on one thread for clients offering h2. No libmicrohttpd here.
        .target(name: "StubHTTP2", dependencies: ["StubCore", "StubSystem", "StubTransport", "CNGHTTP2", "CGnuTLS", "CSystem"]),
        // The libmicrohttpd adapter and the server that assembles the rest.
        .target(name: "StubServer", dependencies: ["StubCore", "StubSystem", "StubTransport", "StubWebSocket", "StubHTTP2", "StubDashboard", "CMicroHTTPD", "CSystem"]),
        .target(name: "StubTesting", dependencies: ["StubServer", "StubSystem", "StubdClient"]),
        // Replicas sharing control state through Valkey or Redis (`serve --state`).
        .target(name: "StubFleet", dependencies: ["StubCore", "StubSystem", "CHiredis", "CGnuTLS"]),
        .target(name: "StubdClient"),
        .executableTarget(name: "stubd-conformance", dependencies: ["StubSchema", "StubCore", "StubSystem"]),
        .executableTarget(name: "stubd", dependencies: ["StubServer", "StubCore", "StubTLS", "StubCapture", "StubContract", "StubProxy", "StubSystem", "StubGraphQL", "StubFleet", "CSystem"]),
        .testTarget(name: "StubCoreTests", dependencies: ["StubCore", "StubSystem", "StubTesting"]),
        .testTarget(name: "StubSchemaTests", dependencies: ["StubSchema", "StubCore", "StubSystem", "StubTestSupport"]),
        // One test target per module, so that a change runs the tests that own it (`swift test
        // --filter StubFleetTests`); what they share (servers, curl, raw sockets, fixtures) is here.
        .target(name: "StubTestSupport", dependencies: ["StubServer", "StubCore", "StubSystem", "StubTesting", "StubTLS"],
                path: "Tests/StubTestSupport"),
        // The support's own tests: that a missing tool skips on a developer's machine and fails under CI=true.
        .testTarget(name: "StubTestSupportTests", dependencies: ["StubTestSupport"]),
        .testTarget(name: "StubServerTests", dependencies: ["StubServer", "StubCore", "StubSystem", "StubTesting", "StubdClient", "StubTestSupport"]),
        .testTarget(name: "StubTransportTests", dependencies: ["StubTransport", "StubServer", "StubCore", "StubSystem"]),
        .testTarget(name: "StubDashboardTests", dependencies: ["StubServer", "StubTesting", "StubTestSupport"]),
        .testTarget(name: "StubTLSTests", dependencies: ["StubTLS", "StubServer", "StubTestSupport"]),
        .testTarget(name: "StubFleetTests", dependencies: ["StubFleet", "StubServer", "StubCore", "StubSystem", "StubTesting", "StubTestSupport"]),
        .testTarget(name: "StubContractTests", dependencies: ["StubContract", "StubSchema", "StubServer", "StubCore", "StubTesting", "StubdClient", "StubTestSupport"]),
        .testTarget(name: "StubCaptureTests", dependencies: ["StubCapture", "StubServer", "StubCore", "StubTesting", "StubdClient", "StubTestSupport"]),
        .testTarget(name: "StubProxyTests", dependencies: ["StubProxy", "StubServer", "StubCore", "StubSystem", "StubTesting", "StubTestSupport"]),
        .testTarget(name: "StubGraphQLTests", dependencies: ["StubGraphQL", "StubServer", "StubCore", "StubTesting", "StubTestSupport"]),
        // The `.stubServer` trait, the XCTest helper and per-test sessions.
        .testTarget(name: "StubTestingTests", dependencies: ["StubTesting", "StubServer", "StubdClient"]),
        .testTarget(name: "StubHTTP2Tests", dependencies: ["StubHTTP2", "StubServer", "StubCore", "StubTransport", "StubTesting", "StubdClient", "StubTestSupport"]),
        .testTarget(name: "StubWebSocketTests", dependencies: ["StubWebSocket", "StubServer", "StubTesting", "StubdClient", "StubTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
