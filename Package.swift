// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stubd",
    products: [
        .executable(name: "stubd", targets: ["stubd"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        .library(name: "StubCore", targets: ["StubCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "StubCore"),
        .target(name: "StubServer", dependencies: ["StubCore", "CMicroHTTPD"]),
        .executableTarget(name: "stubd", dependencies: ["StubServer", "StubCore"]),
        .testTarget(name: "StubCoreTests", dependencies: ["StubCore"]),
        .testTarget(name: "StubServerTests", dependencies: ["StubServer", "StubCore"]),
    ],
    swiftLanguageModes: [.v6]
)
