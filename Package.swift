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
        // The system's OpenSSL (libssl/libcrypto) for HTTPS, through a module map.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),

        .target(name: "OpenMarketCore"),
        // What the server and the client share: sockets, the event loop, the lock, blocking work, secrets, ASCII.
        .target(name: "NetworkIO", dependencies: ["CEpoll"]),
        // TLS sessions driven by our own event loops, certificates (OpenSSL does the cryptography).
        .target(name: "TLS", dependencies: ["COpenSSL"]),
        .target(name: "HTTPServer", dependencies: ["NetworkIO", "TLS"]),
        .target(name: "HTMLTemplates"),
        .target(name: "OpenMarketSandbox", dependencies: ["HTTPServer", "NetworkIO", "OpenMarketCore", "CSQLite"]),
        .target(name: "AdminPanel", dependencies: ["HTTPServer", "NetworkIO", "HTMLTemplates", "OpenMarketCore", "TLS"]),

        .executableTarget(name: "openmarket-admin", dependencies: ["AdminPanel", "NetworkIO", "OpenMarketSandbox", "TLS"]),
        .executableTarget(name: "openmarket-sandbox", dependencies: ["OpenMarketSandbox"]),
        .executableTarget(name: "server-benchmark", dependencies: ["HTTPServer"]),

        .testTarget(name: "OpenMarketCoreTests", dependencies: ["OpenMarketCore"], exclude: ["Fixtures"]),
        .testTarget(name: "NetworkIOTests", dependencies: ["NetworkIO"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "NetworkIO", "TLS"]),
        .testTarget(name: "TLSTests", dependencies: ["TLS"]),
        .testTarget(name: "HTMLTemplatesTests", dependencies: ["HTMLTemplates"]),
        .testTarget(name: "OpenMarketSandboxTests", dependencies: ["OpenMarketSandbox", "OpenMarketCore", "HTTPServer"]),
        .testTarget(name: "AdminPanelTests", dependencies: ["AdminPanel", "OpenMarketSandbox", "OpenMarketCore", "HTTPServer", "TLS"]),
    ],
    swiftLanguageModes: [.v6]
)
