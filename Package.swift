// swift-tools-version:6.0
// OpenMarket Admin: no package dependencies — Foundation, Dispatch, Glibc and system C libraries only.
// Linux only: the event loop is epoll (Sources/CEpoll), child processes in tests use posix_spawn extensions.
import PackageDescription

let package = Package(
    name: "OpenMarketAdmin",
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

        // libsodium: Argon2id password hashes, SHA-256 and HMAC for the panel's sign-in.
        .systemLibrary(name: "CSodium", path: "Sources/CSodium"),
        // libjpeg-turbo and libpng: the panel shrinks photos over the API's 300 KB itself.
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        // Excel workbooks: minizip opens the zip and expat reads the XML of an imported .xlsx;
        // libxlsxwriter writes the .xlsx export.
        .systemLibrary(name: "CMinizip", path: "Sources/CMinizip"),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat"),
        .systemLibrary(name: "CXLSXWriter", path: "Sources/CXLSXWriter"),
        // Area averaging in C for both decoders' rows (header only: fast in debug builds too).
        .systemLibrary(name: "CAreaAverage", path: "Sources/CAreaAverage"),

        .target(name: "OpenMarketCore"),
        // The one home of SQLite access (connections, serial queues, WAL files) for sandbox and panel.
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "NetworkIO"]),
        // What the server and the client share: sockets, the event loop, the lock, blocking work, secrets, ASCII.
        .target(name: "NetworkIO", dependencies: ["CEpoll"]),
        // TLS sessions driven by our own event loops, certificates (OpenSSL does the cryptography).
        .target(name: "TLS", dependencies: ["COpenSSL"]),
        .target(name: "HTTPServer", dependencies: ["NetworkIO", "TLS"]),
        // The pooled keep-alive client the panel uses for its upstream API; beside the server, not in it.
        .target(name: "HTTPClient", dependencies: ["NetworkIO", "TLS"]),
        .target(name: "HTMLTemplates"),
        // .xlsx workbooks read (within limits) into rows of text, and a table written as one.
        .target(name: "Workbook", dependencies: ["CMinizip", "CExpat", "CXLSXWriter"]),
        .target(name: "OpenMarketSandbox", dependencies: ["HTTPServer", "NetworkIO", "OpenMarketCore", "SQLiteStore"]),
        .target(name: "AdminPanel", dependencies: ["HTTPServer", "HTTPClient", "NetworkIO", "HTMLTemplates", "OpenMarketCore", "SQLiteStore", "CSodium", "TLS", "CJPEG", "CPNG", "CAreaAverage", "Workbook"]),

        .executableTarget(name: "openmarket-admin", dependencies: ["AdminPanel", "HTTPServer", "NetworkIO", "OpenMarketSandbox", "TLS"]),
        .executableTarget(name: "openmarket-sandbox", dependencies: ["HTTPServer", "OpenMarketSandbox"]),
        .executableTarget(name: "server-benchmark", dependencies: ["HTTPServer", "HTTPClient"]),

        .testTarget(name: "OpenMarketCoreTests", dependencies: ["OpenMarketCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "NetworkIOTests", dependencies: ["NetworkIO", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore"]),
        // The tests' kit: one raw HTTP client, one stub API, `eventually`, `withServer`, awaited teardown;
        // byte splitting for parser tests; child processes on posix_spawn (not Foundation's Process).
        .systemLibrary(name: "CSpawn", path: "Tests/CSpawn"),
        .target(name: "TestSupport", dependencies: ["CSpawn", "TLS", "HTTPServer"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPClient", "NetworkIO", "TLS", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer", "NetworkIO", "TLS", "TestSupport"]),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "TestSupport"]),
        .testTarget(name: "HTMLTemplatesTests", dependencies: ["HTMLTemplates"]),
        .testTarget(name: "WorkbookTests", dependencies: ["Workbook", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "OpenMarketSandboxTests", dependencies: ["OpenMarketSandbox", "OpenMarketCore", "HTTPServer", "SQLiteStore", "TestSupport"]),
        .testTarget(name: "AdminPanelTests", dependencies: ["AdminPanel", "OpenMarketSandbox", "OpenMarketCore", "HTTPServer", "SQLiteStore", "TLS", "TestSupport", "Workbook"]),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks/PanelBenchmarks: measurements that print figures (a 12 MP photo shrunk, 1,000 import
// rows planned). Not part of `swift test` or of a release build: the target exists only when
// scripts/bench-units sets OPENMARKET_BENCHMARKS=1.
if Context.environment["OPENMARKET_BENCHMARKS"] == "1" {
    package.targets.append(.testTarget(name: "PanelBenchmarks", dependencies: ["AdminPanel", "OpenMarketCore", "TestSupport"],
                                       path: "Benchmarks/PanelBenchmarks"))
}
