import Foundation

/// The captured API answers, kept next to the tests (`Fixtures/`, found from this file's own path)
/// so a clean clone has everything it needs; docs/api.md describes the answers they show.
enum FixtureFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // OpenMarketCoreTests

    static let copies = testsDirectory.appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: copies.appendingPathComponent(name))
    }

    /// Every capture the copies must hold: each is decoded by name, so a missing folder or file
    /// fails its test instead of leaving nothing to check.
    static let expected = [
        "v1-item-detail.json", "v1-list-page.json",
        "v2a-list-page.json", "v2a-product-detail.json", "v2b-list-page.json", "v2b-product-detail.json",
    ]

    /// The JSON files of `directory`; throws when the folder is missing.
    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
