// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stubd",
    // macOS 15 for Synchronization's Atomic and Mutex; iOS 16 for StubdClient in a UI-test target.
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "stubd", targets: ["stubd"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        .library(name: "StubCore", targets: ["StubCore"]),
        .library(name: "StubTLS", targets: ["StubTLS"]),
        .library(name: "StubTesting", targets: ["StubTesting"]),
        .library(name: "StubdClient", targets: ["StubdClient"]),
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
        .systemLibrary(name: "CSystem"),
        .target(name: "StubCore"),
        .target(name: "StubTLS", dependencies: ["StubCore", "CGnuTLS"]),
        .target(name: "StubCapture", dependencies: ["StubCore"]),
        .target(name: "StubProxy", dependencies: ["StubCore", "StubCapture", "CGnuTLS"]),
        .target(name: "StubSchema", dependencies: ["StubCore"]),
        .target(name: "StubContract", dependencies: ["StubCore", "StubSchema", "StubCapture", "CYAML"]),
        .target(name: "StubServer", dependencies: ["StubCore", "CMicroHTTPD", "CSystem"]),
        .target(name: "StubTesting", dependencies: ["StubServer"]),
        .target(name: "StubdClient"),
        .executableTarget(name: "stubd-conformance", dependencies: ["StubSchema", "StubCore"]),
        .executableTarget(name: "stubd", dependencies: ["StubServer", "StubCore", "StubTLS", "StubCapture", "StubContract", "StubProxy", "CSystem"]),
        .testTarget(name: "StubCoreTests", dependencies: ["StubCore", "StubTesting"]),
        .testTarget(name: "StubSchemaTests", dependencies: ["StubSchema", "StubCore"]),
        .testTarget(name: "StubServerTests", dependencies: ["StubServer", "StubCore", "StubTLS", "StubCapture", "StubContract", "StubProxy", "StubSchema", "StubTesting", "StubdClient"]),
    ],
    swiftLanguageModes: [.v6]
)
