// swift-tools-version:6.0
import PackageDescription

// API clients written the way Swift apps write them (URLSession and Codable, a Moya-like
// `TargetType`), tested against stubd started in-process on port 0. See docs/moya.md.
let package = Package(
    name: "StubdExamples",
    // macOS 14, as the package it tests; iOS 16 for StubdClient in a UI-test target.
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .library(name: "APIClient", targets: ["APIClient"]),
    ],
    dependencies: [
        .package(name: "stubd", path: ".."),
    ],
    targets: [
        .target(name: "APIClient"),
        .testTarget(name: "APIClientTests", dependencies: [
            "APIClient",
            .product(name: "StubServer", package: "stubd"),
            .product(name: "StubCore", package: "stubd"),
            .product(name: "StubTesting", package: "stubd"),
            .product(name: "StubdClient", package: "stubd"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
