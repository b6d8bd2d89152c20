// swift-tools-version:6.0
// OpenMarket Admin: no package dependencies — Foundation, Dispatch, Glibc and system C libraries only.
import PackageDescription

let package = Package(
    name: "OpenMarketAdmin",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OpenMarketCore", targets: ["OpenMarketCore"]),
        .executable(name: "openmarket-admin", targets: ["openmarket-admin"]),
        .executable(name: "openmarket-sandbox", targets: ["openmarket-sandbox"]),
    ],
    targets: [
        // The system's SQLite, through a module map (a system library, not a package).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // epoll, eventfd, accept4 and sendfile for HTTPServer's event loop (Linux system headers).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),

        .target(name: "OpenMarketCore"),
        .target(name: "HTTPServer", dependencies: ["CEpoll"]),
        .target(name: "HTMLTemplates"),
        .target(name: "OpenMarketSandbox", dependencies: ["HTTPServer", "OpenMarketCore", "CSQLite"]),
        .target(name: "AdminPanel", dependencies: ["HTTPServer", "HTMLTemplates", "OpenMarketCore", "CSQLite"]),

        .executableTarget(name: "openmarket-admin", dependencies: ["AdminPanel", "OpenMarketSandbox"]),
        .executableTarget(name: "openmarket-sandbox", dependencies: ["OpenMarketSandbox"]),
        .executableTarget(name: "server-benchmark", dependencies: ["HTTPServer"]),

        .testTarget(name: "OpenMarketCoreTests", dependencies: ["OpenMarketCore"], exclude: ["Fixtures"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "HTMLTemplatesTests", dependencies: ["HTMLTemplates"]),
        .testTarget(name: "OpenMarketSandboxTests", dependencies: ["OpenMarketSandbox", "OpenMarketCore", "HTTPServer"]),
        .testTarget(name: "AdminPanelTests", dependencies: ["AdminPanel", "OpenMarketSandbox", "OpenMarketCore", "HTTPServer"]),
    ],
    swiftLanguageModes: [.v6]
)
